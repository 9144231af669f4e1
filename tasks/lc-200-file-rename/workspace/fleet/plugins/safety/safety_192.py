"""Plugin safety_192: score metric for a trip (safety)."""
from fleet.core.geo import distance


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "safety_192"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 8 + trip["bias"], 3, trip["cap"])
    return {"score": round(score, 3)}
