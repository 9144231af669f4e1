"""Plugin safety_072: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the risk team (J. Moreau). Shown on: driver week, quarterly review.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2020-01  docstring rewritten for the new plugin catalogue
  2020-04  kept out of the nightly recomputation at J. Moreau's request
  2020-09  output keys documented for the dashboards team
  2021-04  rounding of the output settled at three digits after the invoice review
  2021-11  the depot opening hour became a per-plugin constant
  2022-03  a trip without an end point is rejected upstream now, not here

Output keys: score.
"""
from fleet.core.geo import distance as distance_fn
import fleet.core.mathx as numeric


NAME = "safety_072"
LABELS = ((0, "moderate"), (1, "none"), (13, "high"), (58, "extreme"))
REQUIRED = ('cap', 'unit', 'when')


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
    d_km = distance_fn(trip["start"], trip["end"])
    score = numeric.clamp(d_km * 3 + trip["bias"], 2, trip["cap"])
    return {"score": round(score, 3)}
