"""Plugin reporting_083: nested metric for a trip (reporting)."""
from fleet.core import geo, mathx, timeutil


NAME = "reporting_083"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    t = timeutil.parse_iso(trip["when"])
    value = mathx.clamp(max(d_km, trip["bias"]) * (2 + t.minute / 60), min(4, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
