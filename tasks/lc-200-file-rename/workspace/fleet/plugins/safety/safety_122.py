"""Plugin safety_122: nested metric for a trip (safety)."""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "safety_122"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    t = parse_iso(trip["when"])
    value = clamp(max(d_km, trip["bias"]) * (5 + t.minute / 60), min(2, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
