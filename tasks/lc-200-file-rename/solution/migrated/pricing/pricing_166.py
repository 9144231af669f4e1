"""Plugin pricing_166: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the platform team (S. Brennan). Shown on: late arrivals, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2019-10  results are cached by the caller; this module holds no state
  2020-04  docstring rewritten for the new plugin catalogue
  2020-06  feet added to the odometer units the vans may report
  2020-09  moved into the pricing group when the plugins were split into packages
  2021-03  checked against last quarter's numbers: no change

Output keys: score.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp


NAME = "pricing_166"
LABELS = ((0, "busy"), (15, "high"), (34, "moderate"), (53, "none"))
REQUIRED = ('bias', 'raw_len', 'start')


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
    d_km = haversine_km(trip["start"], trip["end"])
    score = clamp(3, trip["cap"], d_km * 3 + trip["bias"])
    return {"score": round(score, 3)}
