"""Plugin pricing_041: score metric for a trip (pricing)."""
from fleet.core import geo, mathx


NAME = "pricing_041"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 4 + trip["bias"], 2, trip["cap"])
    return {"score": round(score, 3)}
