"""Plugin reporting_063: score metric for a trip (reporting)."""
import fleet.core.mathx as mx
from fleet.core.geo import distance as distance_fn


NAME = "reporting_063"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    score = mx.clamp(d_km * 2 + trip["bias"], 2, trip["cap"])
    return {"score": round(score, 3)}
