"""Plugin telemetry_039: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (D. Novak). Shown on: daily trips, late arrivals.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The plugin is pure: the same trip always gives the same result, whatever ran before it. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-01  rounding of the output settled at three digits after the invoice review
  2020-04  checked against last quarter's numbers: no change
  2020-08  the label bands below were agreed with customer success
  2020-10  feet added to the odometer units the vans may report

Output keys: hour, weekday, late.
"""
from fleet.core import timeutil


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "telemetry_039"
LABELS = ((0, "none"), (4, "extreme"), (13, "low"), (48, "busy"))
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
    lateness = clamp(t.hour - 0, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
