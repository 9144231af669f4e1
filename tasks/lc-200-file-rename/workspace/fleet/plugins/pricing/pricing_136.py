"""Plugin pricing_136: score metric for a trip (pricing)."""
import fleet.core.mathx as mx
from fleet.core.geo import distance as distance_fn


NAME = "pricing_136"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    score = mx.clamp(d_km * 7 + trip["bias"], 0, trip["cap"])
    return {"score": round(score, 3)}
