"""Plugin reporting_108: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the risk team (D. Novak). Shown on: customer monthly, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. Results of this plugin are compared every night with the previous night's run for the same trips. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2021-09  the depot opening hour became a per-plugin constant
  2021-11  rounding of the output settled at three digits after the invoice review
  2022-03  a trip without an end point is rejected upstream now, not here
  2022-05  results are cached by the caller; this module holds no state
  2023-02  output keys documented for the dashboards team
  2023-06  moved into the reporting group when the plugins were split into packages

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "reporting_108"
LABELS = ((0, "peak"), (16, "busy"), (18, "low"), (57, "high"))
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
    t = parse_iso(trip["when"])
    lateness = clamp(t.hour - 2, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
