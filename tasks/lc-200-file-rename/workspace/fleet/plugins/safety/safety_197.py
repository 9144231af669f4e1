"""Plugin safety_197: time metric for a trip (safety).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the platform team (L. Santos). Shown on: daily trips, depot map.

Trips recorded before the odometer units were added are converted upstream, not here. A trip is never changed here: run() reads the fields it needs and returns a new dict. The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2019-09  output keys documented for the dashboards team
  2020-01  rounding of the output settled at three digits after the invoice review
  2020-08  the label bands below were agreed with platform
  2021-03  feet added to the odometer units the vans may report
  2021-11  kept out of the nightly recomputation at L. Santos's request
  2022-01  a trip without an end point is rejected upstream now, not here

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp as pin
from fleet.core.timeutil import parse_iso as stamp_of


NAME = "safety_197"
LABELS = ((0, "busy"), (14, "high"), (15, "peak"), (16, "moderate"))
REQUIRED = ('cap', 'unit', 'when')


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
    t = stamp_of(trip["when"])
    lateness = pin(t.hour - 4, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
