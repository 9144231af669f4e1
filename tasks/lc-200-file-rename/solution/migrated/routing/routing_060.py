"""Plugin routing_060: time metric for a trip (routing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the fleet-ops team (P. Havel). Shown on: customer monthly, depot map.

Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2019-11  a trip without an end point is rejected upstream now, not here
  2020-02  rounding of the output settled at three digits after the invoice review
  2020-09  the label bands below were agreed with fleet-ops
  2021-05  the customer tuning numbers (bias, cap) became part of every trip
  2021-12  moved into the routing group when the plugins were split into packages
  2022-09  docstring rewritten for the new plugin catalogue

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "routing_060"
LABELS = ((0, "moderate"), (15, "busy"), (40, "extreme"), (57, "low"))
REQUIRED = ('bias', 'raw_len', 'when')


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
    lateness = mathx.clamp(0, 12, t.hour - 3)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
