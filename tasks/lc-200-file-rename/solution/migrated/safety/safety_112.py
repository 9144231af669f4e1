"""Plugin safety_112: time metric for a trip (safety).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the fleet-ops team (J. Moreau). Shown on: invoice preview, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2021-06  docstring rewritten for the new plugin catalogue
  2021-12  rounding of the output settled at three digits after the invoice review
  2022-09  a trip without an end point is rejected upstream now, not here
  2023-05  the label bands below were agreed with fleet-ops

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp as keep_within
import fleet.core.timeutil as stamps


NAME = "safety_112"
LABELS = ((0, "high"), (7, "moderate"), (31, "none"), (32, "quiet"))
REQUIRED = ('cap', 'end', 'raw_len')


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
    t = stamps.parse_timestamp(trip["when"])
    lateness = keep_within(0, 12, t.hour - 1)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
