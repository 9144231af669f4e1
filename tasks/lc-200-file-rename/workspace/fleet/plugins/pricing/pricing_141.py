"""Plugin pricing_141: time metric for a trip (pricing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the billing team (K. Iyer). Shown on: driver week, late arrivals.

Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-10  feet added to the odometer units the vans may report
  2021-06  the customer tuning numbers (bias, cap) became part of every trip
  2022-03  the label bands below were agreed with billing
  2022-06  docstring rewritten for the new plugin catalogue
  2022-10  a trip without an end point is rejected upstream now, not here
  2023-04  checked against last quarter's numbers: no change

Output keys: hour, weekday, late.
"""
from fleet.core.timeutil import parse_iso


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "pricing_141"
LABELS = ((0, "moderate"), (14, "busy"), (28, "extreme"), (39, "none"))
REQUIRED = ('cap', 'start', 'unit')


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
    lateness = clamp(t.hour - 1, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
