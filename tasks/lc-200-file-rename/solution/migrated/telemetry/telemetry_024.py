"""Plugin telemetry_024: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the risk team (L. Santos). Shown on: on-call overview, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2020-05  the label bands below were agreed with risk
  2020-12  rounding of the output settled at three digits after the invoice review
  2021-03  the customer tuning numbers (bias, cap) became part of every trip
  2021-10  the depot opening hour became a per-plugin constant
  2022-03  output keys documented for the dashboards team
  2022-11  results are cached by the caller; this module holds no state

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "telemetry_024"
LABELS = ((0, "none"), (32, "busy"), (37, "high"), (41, "moderate"))
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
    t = timeutil.parse_timestamp(trip["when"])
    lateness = mathx.clamp(0, 12, t.hour - 1)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
