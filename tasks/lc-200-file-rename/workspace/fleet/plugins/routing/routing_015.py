"""Plugin routing_015: time metric for a trip (routing)."""
from fleet.core import mathx, timeutil


NAME = "routing_015"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_iso(trip["when"])
    lateness = mathx.clamp(t.hour - 1, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
