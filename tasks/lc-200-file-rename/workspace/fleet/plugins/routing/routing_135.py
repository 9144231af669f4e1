"""Plugin routing_135: time metric for a trip (routing)."""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "routing_135"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = parse_iso(trip["when"])
    lateness = clamp(t.hour - 3, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
