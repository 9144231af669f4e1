"""Plugin safety_092: length metric for a trip (safety)."""
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "safety_092"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = to_meters(trip["raw_len"], trip["unit"])
    capped = clamp(metres / 600, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
