"""Plugin telemetry_084: time metric for a trip (telemetry)."""
import fleet.core.mathx as mx
import fleet.core.timeutil as tu


NAME = "telemetry_084"


def run(trip):
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = tu.parse_iso(trip["when"])
    lateness = mx.clamp(t.hour - 1, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
