"""Plugin pricing_076: time metric for a trip (pricing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the insights team (K. Iyer). Shown on: driver week, invoice preview.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2020-07  the depot opening hour became a per-plugin constant
  2021-04  checked against last quarter's numbers: no change
  2021-07  the customer tuning numbers (bias, cap) became part of every trip
  2021-09  results are cached by the caller; this module holds no state
  2022-05  the label bands below were agreed with insights
  2022-09  a trip without an end point is rejected upstream now, not here

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp as keep_within
from fleet.core.timeutil import parse_timestamp as read_when


NAME = "pricing_076"
LABELS = ((0, "high"), (11, "quiet"), (36, "peak"), (54, "none"))
REQUIRED = ('cap', 'start', 'unit')


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
