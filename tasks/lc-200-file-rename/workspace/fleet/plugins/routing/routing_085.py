"""Plugin routing_085: length metric for a trip (routing)."""
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "routing_085"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = to_meters(trip["raw_len"], trip["unit"])
    capped = clamp(metres / 400, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
