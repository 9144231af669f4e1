"""Plugin pricing_141: length metric for a trip (pricing)."""
from fleet.core.units import to_meters


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "pricing_141"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = to_meters(trip["raw_len"], trip["unit"])
    capped = clamp(metres / 500, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
