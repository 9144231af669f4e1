"""Plugin telemetry_064: score metric for a trip (telemetry)."""
import fleet.core.mathx as mx
from fleet.core.geo import distance as distance_fn


NAME = "telemetry_064"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    score = mx.clamp(d_km * 6 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
