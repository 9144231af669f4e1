"""Plugin safety_112: combo metric for a trip (safety)."""
import fleet.core.mathx as mx
from fleet.core.geo import distance as distance_fn
from fleet.core.units import to_meters as to_meters_fn


NAME = "safety_112"


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    metres = to_meters_fn(trip["raw_len"], trip["unit"])
    level = mx.clamp(int(d_km // 3), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
