"""Plugin safety_107: time metric for a trip (safety)."""
from fleet.core import timeutil


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "safety_107"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_iso(trip["when"])
    lateness = clamp(t.hour - 4, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
