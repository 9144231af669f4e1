"""Plugin telemetry_134: score metric for a trip (telemetry)."""
from fleet.core.geo import distance
from fleet.core.mathx import clamp


NAME = "telemetry_134"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 4 + trip["bias"], 2, trip["cap"])
    return {"score": round(score, 3)}
