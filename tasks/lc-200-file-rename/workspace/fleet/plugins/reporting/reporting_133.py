"""Plugin reporting_133: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the fleet-ops team (D. Novak). Shown on: driver week, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2020-09  rounding of the output settled at three digits after the invoice review
  2020-11  the depot opening hour became a per-plugin constant
  2021-07  the label bands below were agreed with fleet-ops
  2022-02  docstring rewritten for the new plugin catalogue
  2022-05  kept out of the nightly recomputation at D. Novak's request

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "reporting_133"
LABELS = ((0, "low"), (6, "none"), (15, "busy"), (37, "high"))
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
    t = timeutil.parse_iso(trip["when"])
    lateness = mathx.clamp(t.hour - 3, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
