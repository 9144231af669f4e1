"""Plugin safety_187: nested metric for a trip (safety)."""
import fleet.core.mathx as mx
from fleet.core.geo import distance as distance_fn
import fleet.core.timeutil as tu


NAME = "safety_187"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    t = tu.parse_iso(trip["when"])
    value = mx.clamp(max(d_km, trip["bias"]) * (7 + t.minute / 60), min(3, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
