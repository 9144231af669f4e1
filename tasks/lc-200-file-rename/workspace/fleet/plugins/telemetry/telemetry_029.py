"""Plugin telemetry_029: score metric for a trip (telemetry)."""
from fleet.core import geo, mathx


NAME = "telemetry_029"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 3 + trip["bias"], 2, trip["cap"])
    return {"score": round(score, 3)}
