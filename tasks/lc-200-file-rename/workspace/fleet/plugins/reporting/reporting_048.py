"""Plugin reporting_048: time metric for a trip (reporting).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the insights team (A. Okafor). Shown on: daily trips, late arrivals.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-05  feet added to the odometer units the vans may report
  2021-10  the customer tuning numbers (bias, cap) became part of every trip
  2022-06  checked against last quarter's numbers: no change
  2023-03  rounding of the output settled at three digits after the invoice review
  2023-09  a trip without an end point is rejected upstream now, not here
  2024-02  docstring rewritten for the new plugin catalogue

Output keys: hour, weekday, late.
"""
from fleet.core.timeutil import parse_iso as stamp_of
import fleet.core.mathx as nums


NAME = "reporting_048"
LABELS = ((0, "moderate"), (11, "busy"), (18, "high"), (44, "extreme"))
REQUIRED = ('end', 'unit', 'when')


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
    t = stamp_of(trip["when"])
    lateness = nums.clamp(t.hour - 2, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
