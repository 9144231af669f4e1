"""Plugin reporting_158: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the billing team (A. Okafor). Shown on: driver week, on-call overview.

Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-05  a trip without an end point is rejected upstream now, not here
  2020-10  the label bands below were agreed with billing
  2021-06  rounding of the output settled at three digits after the invoice review
  2021-09  kept out of the nightly recomputation at A. Okafor's request

Output keys: hour, weekday, late.
"""
from fleet.core import timeutil


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "reporting_158"
LABELS = ((0, "quiet"), (1, "low"), (2, "peak"), (11, "none"))
REQUIRED = ('cap', 'raw_len', 'unit')


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
    lateness = clamp(t.hour - 0, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
