"""Plugin routing_090: combo metric for a trip (routing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the insights team (L. Santos). Shown on: daily trips, quarterly review.

Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error. Results of this plugin are compared every night with the previous night's run for the same trips. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2020-05  the customer tuning numbers (bias, cap) became part of every trip
  2020-07  the label bands below were agreed with insights
  2021-02  rounding of the output settled at three digits after the invoice review
  2021-10  the depot opening hour became a per-plugin constant

Output keys: ratio, level.
"""
from fleet.core.geo import distance
from fleet.core.units import to_meters


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "routing_090"
LABELS = ((0, "quiet"), (4, "busy"), (17, "extreme"), (53, "moderate"))
REQUIRED = ('bias', 'end', 'start')


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
    level = clamp(int(d_km // 7), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
