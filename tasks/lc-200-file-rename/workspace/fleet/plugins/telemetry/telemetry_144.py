"""Plugin telemetry_144: length metric for a trip (telemetry)."""
import fleet.core.mathx as mx
from fleet.core.units import to_meters as to_meters_fn


NAME = "telemetry_144"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = to_meters_fn(trip["raw_len"], trip["unit"])
    capped = mx.clamp(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
