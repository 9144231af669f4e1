"""Plugin safety_007: length metric for a trip (safety)."""
from fleet.core import mathx, units


NAME = "safety_007"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 300, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
