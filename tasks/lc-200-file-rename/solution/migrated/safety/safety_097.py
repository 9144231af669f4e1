"""Plugin safety_097: time metric for a trip (safety).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (L. Santos). Shown on: customer monthly, on-call overview.

A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2019-09  the customer tuning numbers (bias, cap) became part of every trip
  2020-02  a trip without an end point is rejected upstream now, not here
  2020-10  output keys documented for the dashboards team
  2021-03  the label bands below were agreed with customer success
  2021-12  moved into the safety group when the plugins were split into packages

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp as keep_within
from fleet.core.timeutil import parse_timestamp as read_when


NAME = "safety_097"
LABELS = ((0, "peak"), (6, "busy"), (17, "quiet"), (47, "extreme"))
REQUIRED = ('cap', 'end', 'when')


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
    t = read_when(trip["when"])
    lateness = keep_within(0, 12, t.hour - 3)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
