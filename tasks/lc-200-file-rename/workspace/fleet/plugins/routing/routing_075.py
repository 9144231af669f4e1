"""Plugin routing_075: score metric for a trip (routing)."""
from fleet.core import geo, mathx


NAME = "routing_075"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 8 + trip["bias"], 3, trip["cap"])
    return {"score": round(score, 3)}
