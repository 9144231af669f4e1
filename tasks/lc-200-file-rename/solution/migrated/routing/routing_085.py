"""Plugin routing_085: combo metric for a trip (routing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the billing team (L. Santos). Shown on: late arrivals, quarterly review.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2022-02  rounding of the output settled at three digits after the invoice review
  2022-11  output keys documented for the dashboards team
  2023-05  the customer tuning numbers (bias, cap) became part of every trip
  2024-02  checked against last quarter's numbers: no change
  2024-04  the depot opening hour became a per-plugin constant

Output keys: ratio, level.
"""
from fleet.core.geo import haversine_km as span_km
from fleet.core.mathx import clamp as pin
import fleet.core.units as lengths


NAME = "routing_085"
LABELS = ((0, "moderate"), (10, "low"), (15, "peak"), (38, "busy"))
REQUIRED = ('bias', 'end', 'raw_len')


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
    d_km = span_km(trip["start"], trip["end"])
    metres = lengths.convert(trip["raw_len"], trip["unit"], "m")
    level = pin(1, 5, int(d_km // 7))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
