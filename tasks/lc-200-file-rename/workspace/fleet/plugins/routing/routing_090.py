"""Plugin routing_090: nested metric for a trip (routing)."""
from fleet.core.geo import distance
from fleet.core.timeutil import parse_iso


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "routing_090"


def run(trip):
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    t = parse_iso(trip["when"])
    value = clamp(max(d_km, trip["bias"]) * (2 + t.minute / 60), min(2, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
