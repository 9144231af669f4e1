"""Plugin reporting_043: length metric for a trip (reporting).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the risk team (L. Santos). Shown on: late arrivals, quarterly review.

Trips recorded before the odometer units were added are converted upstream, not here. Results of this plugin are compared every night with the previous night's run for the same trips. The customer tuning numbers come from the contract database; a missing one is an upstream error. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2020-12  output keys documented for the dashboards team
  2021-06  the customer tuning numbers (bias, cap) became part of every trip
  2021-11  moved into the reporting group when the plugins were split into packages
  2022-08  the label bands below were agreed with risk
  2022-11  rounding of the output settled at three digits after the invoice review

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "reporting_043"
LABELS = ((0, "extreme"), (15, "moderate"), (25, "peak"), (45, "low"))
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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    args = (metres / 300, 0, trip["cap"])
    capped = mathx.clamp(*args)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
