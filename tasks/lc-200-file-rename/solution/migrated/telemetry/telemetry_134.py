"""Plugin telemetry_134: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the billing team (K. Iyer). Shown on: depot map, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Start times without an offset are the depot's local time written as UTC by the vans. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-09  output keys documented for the dashboards team
  2021-11  checked against last quarter's numbers: no change
  2022-06  a trip without an end point is rejected upstream now, not here
  2023-03  the customer tuning numbers (bias, cap) became part of every trip

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "telemetry_134"
LABELS = ((0, "peak"), (45, "high"), (54, "quiet"), (58, "busy"))
REQUIRED = ('start', 'unit', 'when')


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
    lateness = clamp(0, 12, t.hour - 0)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
