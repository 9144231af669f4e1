"""Plugin routing_140: length metric for a trip (routing)."""
from fleet.core import mathx, units


NAME = "routing_140"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 200, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
