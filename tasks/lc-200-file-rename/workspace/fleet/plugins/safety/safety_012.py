"""Plugin safety_012: score metric for a trip (safety)."""
from fleet.core import geo, mathx


NAME = "safety_012"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 5 + trip["bias"], 1, trip["cap"])
    return {"score": round(score, 3)}
