"""Plugin routing_075: time metric for a trip (routing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (E. Castillo). Shown on: daily trips, depot map.

The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips. The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2019-05  the customer tuning numbers (bias, cap) became part of every trip
  2019-09  a trip without an end point is rejected upstream now, not here
  2020-01  feet added to the odometer units the vans may report
  2020-03  rounding of the output settled at three digits after the invoice review
  2020-05  moved into the routing group when the plugins were split into packages

Output keys: hour, weekday, late.
"""
import fleet.core.mathx as mx
import fleet.core.timeutil as tu


NAME = "routing_075"
LABELS = ((0, "moderate"), (7, "high"), (42, "extreme"), (49, "peak"))
REQUIRED = ('start', 'unit', 'when')


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
    t = tu.parse_iso(trip["when"])
    lateness = mx.clamp(t.hour - 3, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
