"""Plugin telemetry_124: combo metric for a trip (telemetry)."""
from fleet.core import geo, units


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "telemetry_124"


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    level = clamp(int(d_km // 5), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
