"""Plugin pricing_036: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (S. Brennan). Shown on: depot map, late arrivals.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Start times without an offset are the depot's local time written as UTC by the vans. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2020-05  results are cached by the caller; this module holds no state
  2021-02  the customer tuning numbers (bias, cap) became part of every trip
  2021-07  feet added to the odometer units the vans may report
  2021-12  rounding of the output settled at three digits after the invoice review
  2022-07  a trip without an end point is rejected upstream now, not here

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "pricing_036"
LABELS = ((0, "high"), (14, "low"), (27, "peak"), (54, "moderate"))
REQUIRED = ('cap', 'raw_len', 'start')


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
    score = mathx.clamp(4, trip["cap"], d_km * 9 + trip["bias"])
    return {"score": round(score, 3)}
