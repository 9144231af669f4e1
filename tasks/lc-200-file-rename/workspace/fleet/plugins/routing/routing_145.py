"""Plugin routing_145: length metric for a trip (routing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the customer success team (M. Lindqvist). Shown on: customer monthly, invoice preview.

Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Results of this plugin are compared every night with the previous night's run for the same trips. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-09  rounding of the output settled at three digits after the invoice review
  2021-02  kept out of the nightly recomputation at M. Lindqvist's request
  2021-05  results are cached by the caller; this module holds no state
  2022-01  output keys documented for the dashboards team

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "routing_145"
LABELS = ((0, "busy"), (8, "low"), (15, "extreme"), (49, "moderate"))
REQUIRED = ('cap', 'end', 'start')


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
    capped = mathx.clamp(metres / 400, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
