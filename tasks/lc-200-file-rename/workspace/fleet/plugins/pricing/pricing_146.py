"""Plugin pricing_146: length metric for a trip (pricing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the fleet-ops team (D. Novak). Shown on: daily trips, invoice preview.

Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2019-06  checked against last quarter's numbers: no change
  2019-11  rounding of the output settled at three digits after the invoice review
  2020-06  the customer tuning numbers (bias, cap) became part of every trip
  2020-12  results are cached by the caller; this module holds no state

Output keys: metres, capped.
"""
from fleet.core.mathx import clamp as keep_within
from fleet.core.units import to_meters as as_metres


NAME = "pricing_146"
LABELS = ((0, "busy"), (15, "none"), (21, "high"), (51, "low"))
REQUIRED = ('raw_len', 'start', 'when')


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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = as_metres(trip["raw_len"], trip["unit"])
    capped = keep_within(metres / 800, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
