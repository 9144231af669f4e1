"""Plugin telemetry_024: nested metric for a trip (telemetry)."""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "telemetry_024"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    t = parse_iso(trip["when"])
    value = clamp(max(d_km, trip["bias"]) * (9 + t.minute / 60), min(4, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
