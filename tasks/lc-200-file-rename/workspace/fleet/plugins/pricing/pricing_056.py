"""Plugin pricing_056: time metric for a trip (pricing)."""
from fleet.core.timeutil import parse_iso


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "pricing_056"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = parse_iso(trip["when"])
    lateness = clamp(t.hour - 0, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
