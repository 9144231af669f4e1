"""Plugin routing_055: length metric for a trip (routing)."""
from fleet.core import mathx, units


NAME = "routing_055"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
