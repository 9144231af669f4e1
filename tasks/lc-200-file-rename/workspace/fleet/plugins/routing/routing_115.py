"""Plugin routing_115: score metric for a trip (routing)."""
from fleet.core.geo import distance
from fleet.core.mathx import clamp


NAME = "routing_115"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 6 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
