"""Plugin pricing_066: combo metric for a trip (pricing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the fleet-ops team (M. Lindqvist). Shown on: daily trips, driver week.

Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The bands in LABELS are for display only and do not change any number this module returns. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2020-04  output keys documented for the dashboards team
  2020-06  rounding of the output settled at three digits after the invoice review
  2021-02  the customer tuning numbers (bias, cap) became part of every trip
  2021-05  feet added to the odometer units the vans may report
  2021-11  the depot opening hour became a per-plugin constant

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "pricing_066"
LABELS = ((0, "moderate"), (12, "peak"), (53, "quiet"), (58, "extreme"))
REQUIRED = ('bias', 'cap', 'unit')


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
    d_km = geo.distance(trip["start"], trip["end"])
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    level = mathx.clamp(int(d_km // 9), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
