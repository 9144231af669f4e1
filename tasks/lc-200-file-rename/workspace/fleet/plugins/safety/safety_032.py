"""Plugin safety_032: time metric for a trip (safety).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the dispatch team (D. Novak). Shown on: driver week, late arrivals.

Results of this plugin are compared every night with the previous night's run for the same trips. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2019-09  the customer tuning numbers (bias, cap) became part of every trip
  2020-03  output keys documented for the dashboards team
  2020-10  the depot opening hour became a per-plugin constant
  2020-12  checked against last quarter's numbers: no change

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "safety_032"
LABELS = ((0, "high"), (30, "moderate"), (47, "busy"), (51, "extreme"))
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
    t = parse_iso(trip["when"])
    triple = (t.hour - 2, 0, 12)
    lateness = clamp(*triple)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
