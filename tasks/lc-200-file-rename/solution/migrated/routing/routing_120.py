"""Plugin routing_120: score metric for a trip (routing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (R. Tanaka). Shown on: daily trips, depot map.

Trips recorded before the odometer units were added are converted upstream, not here. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Results of this plugin are compared every night with the previous night's run for the same trips. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2020-03  rounding of the output settled at three digits after the invoice review
  2020-05  docstring rewritten for the new plugin catalogue
  2020-08  a trip without an end point is rejected upstream now, not here
  2021-03  results are cached by the caller; this module holds no state
  2021-11  feet added to the odometer units the vans may report

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "routing_120"
LABELS = ((0, "moderate"), (11, "peak"), (37, "extreme"), (54, "low"))
REQUIRED = ('start', 'unit', 'when')


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
    score = mathx.clamp(3, trip["cap"], d_km * 5 + trip["bias"])
    return {"score": round(score, 3)}
