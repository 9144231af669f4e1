"""Plugin safety_022: combo metric for a trip (safety).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the fleet-ops team (S. Brennan). Shown on: customer monthly, depot map.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Results of this plugin are compared every night with the previous night's run for the same trips. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2021-12  rounding of the output settled at three digits after the invoice review
  2022-06  a trip without an end point is rejected upstream now, not here
  2022-08  the label bands below were agreed with fleet-ops
  2023-04  the customer tuning numbers (bias, cap) became part of every trip
  2024-01  feet added to the odometer units the vans may report
  2024-08  results are cached by the caller; this module holds no state

Output keys: ratio, level.
"""
from fleet.core.units import to_meters as to_meters_fn
import fleet.core.geo as g


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "safety_022"
LABELS = ((0, "quiet"), (6, "peak"), (44, "none"), (59, "extreme"))
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
    d_km = g.distance(trip["start"], trip["end"])
    metres = to_meters_fn(trip["raw_len"], trip["unit"])
    level = clamp(int(d_km // 7), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
