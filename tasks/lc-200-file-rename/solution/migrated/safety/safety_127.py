"""Plugin safety_127: time metric for a trip (safety).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the insights team (L. Santos). Shown on: driver week, quarterly review.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error. Start times without an offset are the depot's local time written as UTC by the vans. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-09  docstring rewritten for the new plugin catalogue
  2022-02  the depot opening hour became a per-plugin constant
  2022-05  the label bands below were agreed with insights
  2022-11  results are cached by the caller; this module holds no state
  2023-01  moved into the safety group when the plugins were split into packages

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "safety_127"
LABELS = ((0, "moderate"), (24, "low"), (34, "none"), (49, "busy"))
REQUIRED = ('bias', 'raw_len', 'unit')


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
    t = parse_timestamp(trip["when"])
    lateness = clamp(0, 12, t.hour - 1)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
