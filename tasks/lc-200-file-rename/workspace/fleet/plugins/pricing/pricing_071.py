"""Plugin pricing_071: combo metric for a trip (pricing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the customer success team (D. Novak). Shown on: depot map, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error. Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2019-06  rounding of the output settled at three digits after the invoice review
  2019-09  docstring rewritten for the new plugin catalogue
  2020-05  feet added to the odometer units the vans may report
  2020-07  output keys documented for the dashboards team

Output keys: ratio, level.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "pricing_071"
LABELS = ((0, "none"), (6, "low"), (9, "quiet"), (49, "peak"))
REQUIRED = ('bias', 'end', 'unit')


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
    d_km = distance(trip["start"], trip["end"])
    metres = to_meters(trip["raw_len"], trip["unit"])
    level = clamp(int(d_km // 5), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
