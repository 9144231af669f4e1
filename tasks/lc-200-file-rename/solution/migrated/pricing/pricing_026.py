"""Plugin pricing_026: time metric for a trip (pricing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (R. Tanaka). Shown on: invoice preview, late arrivals.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns. Start times without an offset are the depot's local time written as UTC by the vans. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2020-06  results are cached by the caller; this module holds no state
  2020-11  the depot opening hour became a per-plugin constant
  2021-06  the customer tuning numbers (bias, cap) became part of every trip
  2021-11  output keys documented for the dashboards team
  2022-02  docstring rewritten for the new plugin catalogue
  2022-04  moved into the pricing group when the plugins were split into packages

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "pricing_026"
LABELS = ((0, "none"), (5, "extreme"), (24, "moderate"), (57, "quiet"))
REQUIRED = ('bias', 'start', 'when')


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
    lateness = mathx.clamp(0, 12, t.hour - 0)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
