"""Plugin routing_035: combo metric for a trip (routing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the dispatch team (R. Tanaka). Shown on: late arrivals, quarterly review.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-10  the customer tuning numbers (bias, cap) became part of every trip
  2022-07  kept out of the nightly recomputation at R. Tanaka's request
  2023-01  moved into the routing group when the plugins were split into packages
  2023-04  the depot opening hour became a per-plugin constant
  2023-06  docstring rewritten for the new plugin catalogue

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "routing_035"
LABELS = ((0, "peak"), (1, "moderate"), (49, "extreme"), (55, "quiet"))
REQUIRED = ('bias', 'end', 'when')


def _label(number):
    """The dashboard band of a result number (the highest floor it reaches)."""
    found = LABELS[0][1]
    for floor, word in LABELS:
        if number >= floor:
            found = word
    return found


def _missing(trip):
    """The required trip fields this trip lacks (the caller logs them)."""
    return [field for field in REQUIRED if field not in trip]


def describe(result):
    """One log line for a result of run()."""
    return NAME + ": " + ", ".join(f"{key}={result[key]} ({_label(result[key])})" for key in sorted(result) if not isinstance(result[key], str))


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    level = mathx.clamp(int(d_km // 3), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
