"""Plugin pricing_051: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the risk team (M. Lindqvist). Shown on: driver week, quarterly review.

Results of this plugin are compared every night with the previous night's run for the same trips. Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-02  output keys documented for the dashboards team
  2020-08  moved into the pricing group when the plugins were split into packages
  2021-04  a trip without an end point is rejected upstream now, not here
  2021-10  checked against last quarter's numbers: no change
  2022-01  the label bands below were agreed with risk
  2022-09  feet added to the odometer units the vans may report

Output keys: score.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp


NAME = "pricing_051"
LABELS = ((0, "peak"), (8, "low"), (9, "extreme"), (29, "high"))
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
    d_km = haversine_km(trip["start"], trip["end"])
    score = clamp(0, trip["cap"], d_km * 3 + trip["bias"])
    return {"score": round(score, 3)}
