"""Plugin reporting_043: score metric for a trip (reporting)."""
from fleet.core.geo import distance
from fleet.core.mathx import clamp


NAME = "reporting_043"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 6 + trip["bias"], 3, trip["cap"])
    return {"score": round(score, 3)}
