"""Plugin telemetry_124: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the platform team (K. Iyer). Shown on: daily trips, invoice preview.

The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2020-09  rounding of the output settled at three digits after the invoice review
  2020-12  kept out of the nightly recomputation at K. Iyer's request
  2021-08  feet added to the odometer units the vans may report
  2021-11  the customer tuning numbers (bias, cap) became part of every trip

Output keys: hour, weekday, late.
"""
from fleet.core import timeutil


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "telemetry_124"
LABELS = ((0, "quiet"), (33, "high"), (52, "low"), (59, "moderate"))
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
    t = timeutil.parse_iso(trip["when"])
    lateness = clamp(t.hour - 1, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
