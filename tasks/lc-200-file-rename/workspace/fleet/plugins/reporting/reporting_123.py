"""Plugin reporting_123: length metric for a trip (reporting).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the billing team (S. Brennan). Shown on: depot map, late arrivals.

Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2019-12  the depot opening hour became a per-plugin constant
  2020-06  rounding of the output settled at three digits after the invoice review
  2020-09  feet added to the odometer units the vans may report
  2021-03  the customer tuning numbers (bias, cap) became part of every trip
  2021-11  output keys documented for the dashboards team
  2022-04  moved into the reporting group when the plugins were split into packages

Output keys: metres, capped.
"""
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "reporting_123"
LABELS = ((0, "none"), (27, "high"), (30, "extreme"), (33, "moderate"))
REQUIRED = ('end', 'raw_len', 'start')


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
    metres = to_meters(trip["raw_len"], trip["unit"])
    span_args = (metres / 700, 0, trip["cap"])
    capped = clamp(*span_args)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
