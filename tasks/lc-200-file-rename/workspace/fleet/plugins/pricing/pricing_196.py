"""Plugin pricing_196: combo metric for a trip (pricing)."""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "pricing_196"


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    metres = to_meters(trip["raw_len"], trip["unit"])
    level = clamp(int(d_km // 7), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
