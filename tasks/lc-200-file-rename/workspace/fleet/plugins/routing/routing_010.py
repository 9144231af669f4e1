"""Plugin routing_010: time metric for a trip (routing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the risk team (L. Santos). Shown on: depot map, quarterly review.

The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns. Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2020-12  kept out of the nightly recomputation at L. Santos's request
  2021-06  output keys documented for the dashboards team
  2021-08  a trip without an end point is rejected upstream now, not here
  2021-11  the customer tuning numbers (bias, cap) became part of every trip

Output keys: hour, weekday, late.
"""
from fleet.core.timeutil import parse_iso as stamp_of
import fleet.core.mathx as nums


NAME = "routing_010"
LABELS = ((0, "peak"), (1, "none"), (42, "extreme"), (56, "high"))
REQUIRED = ('bias', 'start', 'unit')


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
    lateness = nums.clamp(t.hour - 2, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
