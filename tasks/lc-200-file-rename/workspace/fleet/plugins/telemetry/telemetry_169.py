"""Plugin telemetry_169: time metric for a trip (telemetry)."""
from fleet.core import mathx, timeutil


NAME = "telemetry_169"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_iso(trip["when"])
    lateness = mathx.clamp(t.hour - 4, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
