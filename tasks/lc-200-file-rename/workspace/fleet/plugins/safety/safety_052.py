"""Plugin safety_052: time metric for a trip (safety)."""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "safety_052"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = parse_iso(trip["when"])
    lateness = clamp(t.hour - 4, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
