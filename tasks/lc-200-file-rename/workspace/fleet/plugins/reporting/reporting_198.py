"""Plugin reporting_198: time metric for a trip (reporting)."""
from fleet.core import mathx, timeutil


NAME = "reporting_198"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_iso(trip["when"])
    lateness = mathx.clamp(t.hour - 2, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
