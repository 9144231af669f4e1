"""Plugin pricing_086: score metric for a trip (pricing)."""
from fleet.core.geo import distance
from fleet.core.mathx import clamp


NAME = "pricing_086"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 3 + trip["bias"], 0, trip["cap"])
    return {"score": round(score, 3)}
