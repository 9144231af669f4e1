"""Plugin routing_055: score metric for a trip (routing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the customer success team (L. Santos). Shown on: driver week, invoice preview.

The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2019-11  results are cached by the caller; this module holds no state
  2020-04  the customer tuning numbers (bias, cap) became part of every trip
  2020-11  a trip without an end point is rejected upstream now, not here
  2021-02  feet added to the odometer units the vans may report
  2021-11  checked against last quarter's numbers: no change

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "routing_055"
LABELS = ((0, "moderate"), (12, "extreme"), (13, "quiet"), (23, "busy"))
REQUIRED = ('end', 'raw_len', 'unit')


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
    score = mathx.clamp(d_km * 8 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
