"""Plugin safety_007: shift metric for a trip (safety).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (D. Novak). Shown on: on-call overview, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2020-01  rounding of the output settled at three digits after the invoice review
  2020-03  feet added to the odometer units the vans may report
  2020-05  the customer tuning numbers (bias, cap) became part of every trip
  2020-09  kept out of the nightly recomputation at D. Novak's request
  2021-05  checked against last quarter's numbers: no change
  2022-01  a trip without an end point is rejected upstream now, not here

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "safety_007"
LABELS = ((0, "busy"), (2, "moderate"), (22, "high"), (49, "quiet"))
REQUIRED = ('bias', 'end', 'unit')


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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_timestamp(trip["when"])
    slot = mathx.wrap(0, 24, t.hour + t.minute / 60 + 2)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
