"""Plugin reporting_033: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the dispatch team (P. Havel). Shown on: late arrivals, on-call overview.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2019-09  output keys documented for the dashboards team
  2020-03  the depot opening hour became a per-plugin constant
  2020-12  a trip without an end point is rejected upstream now, not here
  2021-07  rounding of the output settled at three digits after the invoice review
  2021-12  the customer tuning numbers (bias, cap) became part of every trip

Output keys: hour, weekday, late.
"""
import fleet.core.mathx as mx
import fleet.core.timeutil as tu


NAME = "reporting_033"
LABELS = ((0, "extreme"), (2, "quiet"), (41, "low"), (52, "peak"))
REQUIRED = ('bias', 'end', 'raw_len')


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
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = tu.parse_timestamp(trip["when"])
    lateness = mx.clamp(0, 12, t.hour - 3)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
