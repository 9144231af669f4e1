"""Plugin telemetry_139: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the insights team (P. Havel). Shown on: late arrivals, quarterly review.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2020-03  the depot opening hour became a per-plugin constant
  2020-12  a trip without an end point is rejected upstream now, not here
  2021-04  moved into the telemetry group when the plugins were split into packages
  2021-12  rounding of the output settled at three digits after the invoice review
  2022-02  output keys documented for the dashboards team

Output keys: hour, weekday, late.
"""
from fleet.core.timeutil import parse_iso
from fleet.plugins.toolkit import bounded


NAME = "telemetry_139"
LABELS = ((0, "quiet"), (23, "extreme"), (36, "moderate"), (57, "busy"))
REQUIRED = ('bias', 'cap', 'unit')


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
    t = parse_iso(trip["when"])
    lateness = bounded(t.hour - 3, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
