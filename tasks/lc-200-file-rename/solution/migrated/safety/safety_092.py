"""Plugin safety_092: combo metric for a trip (safety).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the customer success team (M. Lindqvist). Shown on: daily trips, on-call overview.

The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns. A trip is never changed here: run() reads the fields it needs and returns a new dict. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2022-01  feet added to the odometer units the vans may report
  2022-08  rounding of the output settled at three digits after the invoice review
  2023-01  a trip without an end point is rejected upstream now, not here
  2023-07  moved into the safety group when the plugins were split into packages
  2023-10  docstring rewritten for the new plugin catalogue
  2024-01  checked against last quarter's numbers: no change

Output keys: ratio, level.
"""
from fleet.core.mathx import clamp as pin
import fleet.core.geo as g
import fleet.core.units as measure


NAME = "safety_092"
LABELS = ((0, "high"), (8, "moderate"), (24, "quiet"), (52, "peak"))
REQUIRED = ('bias', 'cap', 'when')


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
    d_km = g.haversine_km(trip["start"], trip["end"])
    metres = measure.convert(trip["raw_len"], trip["unit"], "m")
    level = pin(1, 5, int(d_km // 7))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
