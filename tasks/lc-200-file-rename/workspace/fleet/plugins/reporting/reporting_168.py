"""Plugin reporting_168: time metric for a trip (reporting)."""
import fleet.core.mathx as mx
import fleet.core.timeutil as tu


NAME = "reporting_168"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = tu.parse_iso(trip["when"])
    lateness = mx.clamp(t.hour - 2, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
