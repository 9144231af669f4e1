"""Plugin telemetry_014: length metric for a trip (telemetry).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the risk team (M. Lindqvist). Shown on: driver week, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. The customer tuning numbers come from the contract database; a missing one is an upstream error. Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2019-06  rounding of the output settled at three digits after the invoice review
  2019-12  output keys documented for the dashboards team
  2020-04  checked against last quarter's numbers: no change
  2020-09  moved into the telemetry group when the plugins were split into packages

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "telemetry_014"
LABELS = ((0, "extreme"), (7, "busy"), (15, "high"), (57, "moderate"))
REQUIRED = ('cap', 'end', 'unit')


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
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
