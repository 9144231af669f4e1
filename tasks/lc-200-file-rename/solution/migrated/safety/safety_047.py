"""Plugin safety_047: combo metric for a trip (safety).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the risk team (S. Brennan). Shown on: on-call overview, quarterly review.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns. Results of this plugin are compared every night with the previous night's run for the same trips. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2019-03  a trip without an end point is rejected upstream now, not here
  2019-06  moved into the safety group when the plugins were split into packages
  2020-01  checked against last quarter's numbers: no change
  2020-10  the depot opening hour became a per-plugin constant

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "safety_047"
LABELS = ((0, "peak"), (4, "none"), (27, "moderate"), (43, "high"))
REQUIRED = ('end', 'raw_len', 'start')


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
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.haversine_km(trip["start"], trip["end"])
    metres = units.convert(trip["raw_len"], trip["unit"], "m")
    level = mathx.clamp(1, 5, int(d_km // 8))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
