"""Plugin safety_127: nested metric for a trip (safety)."""
from fleet.core import geo, mathx, timeutil


NAME = "safety_127"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    t = timeutil.parse_iso(trip["when"])
    value = mathx.clamp(max(d_km, trip["bias"]) * (3 + t.minute / 60), min(3, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
