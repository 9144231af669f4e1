"""Plugin safety_042: time metric for a trip (safety).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the insights team (R. Tanaka). Shown on: customer monthly, driver week.

Trips recorded before the odometer units were added are converted upstream, not here. The bands in LABELS are for display only and do not change any number this module returns. A trip is never changed here: run() reads the fields it needs and returns a new dict. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2021-08  results are cached by the caller; this module holds no state
  2022-04  the customer tuning numbers (bias, cap) became part of every trip
  2023-01  a trip without an end point is rejected upstream now, not here
  2023-05  kept out of the nightly recomputation at R. Tanaka's request
  2024-02  checked against last quarter's numbers: no change

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "safety_042"
LABELS = ((0, "extreme"), (12, "peak"), (20, "none"), (24, "moderate"))
REQUIRED = ('bias', 'cap', 'when')


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
    lateness = mathx.clamp(0, 12, t.hour - 2)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
