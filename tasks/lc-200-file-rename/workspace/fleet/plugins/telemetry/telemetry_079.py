"""Plugin telemetry_079: length metric for a trip (telemetry)."""
from fleet.core import mathx, units


NAME = "telemetry_079"


def run(trip):
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 200, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
