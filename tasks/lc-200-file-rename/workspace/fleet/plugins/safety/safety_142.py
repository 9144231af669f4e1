"""Plugin safety_142: score metric for a trip (safety)."""
import fleet.core.mathx as mx
from fleet.core.geo import distance as distance_fn


NAME = "safety_142"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    score = mx.clamp(d_km * 6 + trip["bias"], 1, trip["cap"])
    return {"score": round(score, 3)}
