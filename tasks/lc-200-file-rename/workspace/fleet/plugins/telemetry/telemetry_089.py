"""Plugin telemetry_089: length metric for a trip (telemetry)."""
from fleet.core import mathx, units


NAME = "telemetry_089"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 600, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
