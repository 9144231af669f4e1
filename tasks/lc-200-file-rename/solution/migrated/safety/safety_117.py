"""Plugin safety_117: combo metric for a trip (safety).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the risk team (K. Iyer). Shown on: on-call overview, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-03  output keys documented for the dashboards team
  2021-06  moved into the safety group when the plugins were split into packages
  2021-12  the label bands below were agreed with risk
  2022-04  kept out of the nightly recomputation at K. Iyer's request

Output keys: ratio, level.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.units import convert


NAME = "safety_117"
LABELS = ((0, "high"), (3, "busy"), (22, "none"), (57, "moderate"))
REQUIRED = ('cap', 'end', 'unit')


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
    d_km = haversine_km(trip["start"], trip["end"])
    metres = convert(trip["raw_len"], trip["unit"], "m")
    level = clamp(1, 5, int(d_km // 2))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
