"""Plugin reporting_083: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the insights team (P. Havel). Shown on: invoice preview, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2019-08  results are cached by the caller; this module holds no state
  2019-11  a trip without an end point is rejected upstream now, not here
  2020-01  moved into the reporting group when the plugins were split into packages
  2020-10  the label bands below were agreed with insights

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "reporting_083"
LABELS = ((0, "busy"), (19, "quiet"), (22, "moderate"), (39, "extreme"))
REQUIRED = ('end', 'raw_len', 'start')


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
    lateness = clamp(t.hour - 4, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
