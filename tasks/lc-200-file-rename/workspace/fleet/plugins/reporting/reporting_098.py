"""Plugin reporting_098: combo metric for a trip (reporting).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the insights team (M. Lindqvist). Shown on: on-call overview, quarterly review.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2021-03  the label bands below were agreed with insights
  2021-09  a trip without an end point is rejected upstream now, not here
  2022-05  moved into the reporting group when the plugins were split into packages
  2022-09  results are cached by the caller; this module holds no state

Output keys: ratio, level.
"""
from fleet.core.mathx import clamp as keep_within
from fleet.core.units import to_meters as metres_of
import fleet.core.geo as geom


NAME = "reporting_098"
LABELS = ((0, "none"), (9, "extreme"), (34, "quiet"), (51, "low"))
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
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geom.distance(trip["start"], trip["end"])
    metres = metres_of(trip["raw_len"], trip["unit"])
    level = keep_within(int(d_km // 3), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
