"""Plugin safety_077: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the fleet-ops team (D. Novak). Shown on: daily trips, depot map.

A trip is never changed here: run() reads the fields it needs and returns a new dict. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Start times without an offset are the depot's local time written as UTC by the vans. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2022-02  docstring rewritten for the new plugin catalogue
  2022-09  the label bands below were agreed with fleet-ops
  2023-03  rounding of the output settled at three digits after the invoice review
  2023-11  a trip without an end point is rejected upstream now, not here
  2024-06  kept out of the nightly recomputation at D. Novak's request

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "safety_077"
LABELS = ((0, "extreme"), (3, "busy"), (17, "quiet"), (35, "moderate"))
REQUIRED = ('end', 'raw_len', 'when')


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
    d_km = geo.haversine_km(trip["start"], trip["end"])
    score = mathx.clamp(2, trip["cap"], d_km * 3 + trip["bias"])
    return {"score": round(score, 3)}
