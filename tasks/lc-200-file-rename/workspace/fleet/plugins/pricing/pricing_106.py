"""Plugin pricing_106: time metric for a trip (pricing)."""
from fleet.core import mathx, timeutil


NAME = "pricing_106"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_iso(trip["when"])
    lateness = mathx.clamp(t.hour - 4, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
