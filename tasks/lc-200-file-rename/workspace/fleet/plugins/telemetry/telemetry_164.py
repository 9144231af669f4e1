"""Plugin telemetry_164: combo metric for a trip (telemetry).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the dispatch team (M. Lindqvist). Shown on: invoice preview, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The bands in LABELS are for display only and do not change any number this module returns. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2022-05  the depot opening hour became a per-plugin constant
  2022-10  the customer tuning numbers (bias, cap) became part of every trip
  2023-06  kept out of the nightly recomputation at M. Lindqvist's request
  2023-09  output keys documented for the dashboards team

Output keys: ratio, level.
"""
from fleet.core.geo import distance as distance_fn
import fleet.core.mathx as numeric
import fleet.core.units as measure


NAME = "telemetry_164"
LABELS = ((0, "busy"), (2, "low"), (4, "high"), (30, "none"))
REQUIRED = ('cap', 'raw_len', 'start')


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
    metres = measure.to_meters(trip["raw_len"], trip["unit"])
    level = numeric.clamp(int(d_km // 2), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
