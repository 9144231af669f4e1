"""Plugin pricing_001: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (K. Iyer). Shown on: depot map, late arrivals.

The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-09  moved into the pricing group when the plugins were split into packages
  2022-04  kept out of the nightly recomputation at K. Iyer's request
  2022-09  output keys documented for the dashboards team
  2023-01  the customer tuning numbers (bias, cap) became part of every trip
  2023-08  the depot opening hour became a per-plugin constant
  2024-01  a trip without an end point is rejected upstream now, not here

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "pricing_001"
LABELS = ((0, "low"), (27, "quiet"), (36, "peak"), (41, "extreme"))
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
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 3 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
