"""Plugin reporting_073: length metric for a trip (reporting)."""
from fleet.core import units


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "reporting_073"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = clamp(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
