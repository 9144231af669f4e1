"""Plugin reporting_013: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the platform team (J. Moreau). Shown on: depot map, invoice preview.

A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2021-11  moved into the reporting group when the plugins were split into packages
  2022-07  a trip without an end point is rejected upstream now, not here
  2023-02  the customer tuning numbers (bias, cap) became part of every trip
  2023-11  the label bands below were agreed with platform

Output keys: hour, weekday, late.
"""
from functools import partial
from fleet.core import mathx, timeutil


NAME = "reporting_013"
LABELS = ((0, "peak"), (3, "none"), (21, "low"), (51, "quiet"))
REQUIRED = ('bias', 'end', 'start')
_to_band = partial(mathx.clamp, lo=0, hi=12)


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
    lateness = _to_band(t.hour - 2)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
