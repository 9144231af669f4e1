"""Plugin routing_115: nested metric for a trip (routing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the fleet-ops team (R. Tanaka). Shown on: depot map, quarterly review.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2020-06  rounding of the output settled at three digits after the invoice review
  2020-10  the customer tuning numbers (bias, cap) became part of every trip
  2021-01  results are cached by the caller; this module holds no state
  2021-10  feet added to the odometer units the vans may report

Output keys: value.
"""
from fleet.core import geo, mathx, timeutil


NAME = "routing_115"
LABELS = ((0, "peak"), (16, "moderate"), (42, "none"), (57, "busy"))
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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.haversine_km(trip["start"], trip["end"])
    t = timeutil.parse_timestamp(trip["when"])
    value = mathx.clamp(min(0, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (3 + t.minute / 60))
    return {"value": round(value, 3)}
