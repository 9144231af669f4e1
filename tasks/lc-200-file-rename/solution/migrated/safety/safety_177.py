"""Plugin safety_177: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the dispatch team (L. Santos). Shown on: daily trips, on-call overview.

Results of this plugin are compared every night with the previous night's run for the same trips. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. A trip is never changed here: run() reads the fields it needs and returns a new dict. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2019-06  the depot opening hour became a per-plugin constant
  2019-11  checked against last quarter's numbers: no change
  2020-08  the label bands below were agreed with dispatch
  2020-12  docstring rewritten for the new plugin catalogue
  2021-05  a trip without an end point is rejected upstream now, not here

Output keys: value.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "safety_177"
LABELS = ((0, "moderate"), (3, "none"), (14, "high"), (40, "extreme"))
REQUIRED = ('bias', 'start', 'unit')


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
    d_km = haversine_km(trip["start"], trip["end"])
    t = parse_timestamp(trip["when"])
    value = clamp(min(2, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (9 + t.minute / 60))
    return {"value": round(value, 3)}
