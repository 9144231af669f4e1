"""Plugin routing_175: combo metric for a trip (routing)."""
from fleet.core.geo import distance as distance_fn
from fleet.core.units import to_meters as to_meters_fn


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "routing_175"


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    metres = to_meters_fn(trip["raw_len"], trip["unit"])
    level = clamp(int(d_km // 3), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
