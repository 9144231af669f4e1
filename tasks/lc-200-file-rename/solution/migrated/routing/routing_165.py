"""Plugin routing_165: nested metric for a trip (routing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the risk team (K. Iyer). Shown on: driver week, late arrivals.

Trips recorded before the odometer units were added are converted upstream, not here. A trip is never changed here: run() reads the fields it needs and returns a new dict. Start times without an offset are the depot's local time written as UTC by the vans. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-04  results are cached by the caller; this module holds no state
  2020-06  feet added to the odometer units the vans may report
  2020-12  checked against last quarter's numbers: no change
  2021-05  rounding of the output settled at three digits after the invoice review
  2021-11  a trip without an end point is rejected upstream now, not here

Output keys: value.
"""
from fleet.core.geo import haversine_km as gc_km
from fleet.core.mathx import clamp as limit
from fleet.core.timeutil import parse_timestamp as stamp_of


NAME = "routing_165"
LABELS = ((0, "none"), (4, "extreme"), (10, "peak"), (23, "low"))
REQUIRED = ('bias', 'cap', 'raw_len')


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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = gc_km(trip["start"], trip["end"])
    t = stamp_of(trip["when"])
    value = limit(min(1, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (5 + t.minute / 60))
    return {"value": round(value, 3)}
