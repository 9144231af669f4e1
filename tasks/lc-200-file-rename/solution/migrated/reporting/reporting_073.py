"""Plugin reporting_073: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the dispatch team (D. Novak). Shown on: depot map, invoice preview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2022-01  feet added to the odometer units the vans may report
  2022-06  moved into the reporting group when the plugins were split into packages
  2022-11  rounding of the output settled at three digits after the invoice review
  2023-04  the depot opening hour became a per-plugin constant
  2023-10  a trip without an end point is rejected upstream now, not here

Output keys: hour, weekday, late.
"""
from fleet.core import timeutil


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "reporting_073"
LABELS = ((0, "low"), (17, "quiet"), (22, "peak"), (51, "high"))
REQUIRED = ('bias', 'cap', 'end')


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
    lateness = clamp(t.hour - 4, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
