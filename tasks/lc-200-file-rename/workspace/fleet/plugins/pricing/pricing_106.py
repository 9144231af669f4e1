"""Plugin pricing_106: combo metric for a trip (pricing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the fleet-ops team (M. Lindqvist). Shown on: daily trips, invoice preview.

Start times without an offset are the depot's local time written as UTC by the vans. The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2020-06  feet added to the odometer units the vans may report
  2020-12  the customer tuning numbers (bias, cap) became part of every trip
  2021-04  checked against last quarter's numbers: no change
  2021-12  output keys documented for the dashboards team
  2022-02  the depot opening hour became a per-plugin constant
  2022-10  the label bands below were agreed with fleet-ops

Output keys: ratio, level.
"""
from fleet.core.geo import distance as distance_fn
from fleet.core.mathx import clamp as keep_within
import fleet.core.units as lengths


NAME = "pricing_106"
LABELS = ((0, "moderate"), (1, "quiet"), (30, "busy"), (59, "extreme"))
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
    d_km = distance_fn(trip["start"], trip["end"])
    metres = lengths.to_meters(trip["raw_len"], trip["unit"])
    level = keep_within(int(d_km // 5), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
