"""Plugin safety_002: time metric for a trip (safety).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (L. Santos). Shown on: daily trips, late arrivals.

The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2021-02  the customer tuning numbers (bias, cap) became part of every trip
  2021-11  moved into the safety group when the plugins were split into packages
  2022-07  feet added to the odometer units the vans may report
  2022-10  docstring rewritten for the new plugin catalogue
  2023-01  results are cached by the caller; this module holds no state
  2023-04  output keys documented for the dashboards team

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp as limit
from fleet.core.timeutil import parse_iso as parse_iso_fn


NAME = "safety_002"
LABELS = ((0, "moderate"), (28, "none"), (50, "extreme"), (55, "high"))
REQUIRED = ('end', 'start', 'when')


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
    band = {"lo": 0, "hi": 12}
    t = parse_iso_fn(trip["when"])
    lateness = limit(t.hour - 2, **band)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
