"""Plugin pricing_001: time metric for a trip (pricing)."""
from fleet.core import mathx, timeutil


NAME = "pricing_001"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_iso(trip["when"])
    lateness = mathx.clamp(t.hour - 2, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
