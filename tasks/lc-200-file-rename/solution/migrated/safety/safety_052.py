"""Plugin safety_052: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the billing team (E. Castillo). Shown on: daily trips, driver week.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2022-01  results are cached by the caller; this module holds no state
  2022-08  feet added to the odometer units the vans may report
  2022-10  the depot opening hour became a per-plugin constant
  2023-03  kept out of the nightly recomputation at E. Castillo's request
  2023-09  a trip without an end point is rejected upstream now, not here

Output keys: score.
"""
from fleet.core.geo import haversine_km as distance_fn
from fleet.core.mathx import clamp as keep_within


NAME = "safety_052"
LABELS = ((0, "low"), (12, "moderate"), (34, "none"), (53, "extreme"))
REQUIRED = ('cap', 'start', 'unit')


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
    score = keep_within(0, trip["cap"], d_km * 6 + trip["bias"])
    return {"score": round(score, 3)}
