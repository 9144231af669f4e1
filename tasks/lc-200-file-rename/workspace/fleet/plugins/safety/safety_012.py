"""Plugin safety_012: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the insights team (M. Lindqvist). Shown on: daily trips, late arrivals.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2022-07  the depot opening hour became a per-plugin constant
  2022-11  checked against last quarter's numbers: no change
  2023-01  feet added to the odometer units the vans may report
  2023-10  moved into the safety group when the plugins were split into packages

Output keys: value.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "safety_012"
LABELS = ((0, "extreme"), (5, "quiet"), (29, "low"), (49, "busy"))
REQUIRED = ('bias', 'raw_len', 'start')
STEPS = {"clamp": clamp}


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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    t = parse_iso(trip["when"])
    value = STEPS["clamp"](max(d_km, trip["bias"]) * (5 + t.minute / 60), min(2, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
