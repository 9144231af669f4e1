"""Plugin safety_172: score metric for a trip (safety)."""
from fleet.core import geo, mathx


NAME = "safety_172"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 9 + trip["bias"], 3, trip["cap"])
    return {"score": round(score, 3)}
