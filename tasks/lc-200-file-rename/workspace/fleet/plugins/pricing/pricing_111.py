"""Plugin pricing_111: nested metric for a trip (pricing)."""
from fleet.core import geo, mathx, timeutil


NAME = "pricing_111"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    t = timeutil.parse_iso(trip["when"])
    value = mathx.clamp(max(d_km, trip["bias"]) * (4 + t.minute / 60), min(2, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
