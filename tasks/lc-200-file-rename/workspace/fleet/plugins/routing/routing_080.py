"""Plugin routing_080: nested metric for a trip (routing)."""
from fleet.core import geo, mathx, timeutil


NAME = "routing_080"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    t = timeutil.parse_iso(trip["when"])
    value = mathx.clamp(max(d_km, trip["bias"]) * (3 + t.minute / 60), min(1, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
