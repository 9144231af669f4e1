"""Plugin telemetry_154: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the billing team (A. Okafor). Shown on: customer monthly, late arrivals.

The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2020-06  checked against last quarter's numbers: no change
  2020-12  the label bands below were agreed with billing
  2021-07  output keys documented for the dashboards team
  2021-09  kept out of the nightly recomputation at A. Okafor's request
  2022-05  the customer tuning numbers (bias, cap) became part of every trip
  2023-01  feet added to the odometer units the vans may report

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "telemetry_154"
LABELS = ((0, "quiet"), (7, "none"), (15, "peak"), (35, "moderate"))
REQUIRED = ('bias', 'end', 'when')


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
    lateness = clamp(0, 12, t.hour - 3)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
