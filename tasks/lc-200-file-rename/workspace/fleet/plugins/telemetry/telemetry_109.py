"""Plugin telemetry_109: combo metric for a trip (telemetry)."""
from fleet.core import geo, mathx, units


NAME = "telemetry_109"


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    level = mathx.clamp(int(d_km // 8), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
