"""Plugin safety_027: heading metric for a trip (safety).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the risk team (K. Iyer). Shown on: driver week, invoice preview.

The bands in LABELS are for display only and do not change any number this module returns. Trips recorded before the odometer units were added are converted upstream, not here. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2019-09  output keys documented for the dashboards team
  2019-12  rounding of the output settled at three digits after the invoice review
  2020-06  feet added to the odometer units the vans may report
  2021-01  the customer tuning numbers (bias, cap) became part of every trip
  2021-05  checked against last quarter's numbers: no change

Output keys: phase, swing.
"""
from fleet.core.geo import haversine_km as span_km
from fleet.core.mathx import lerp as mix
import fleet.core.mathx as mx


NAME = "safety_027"
LABELS = ((0, "none"), (19, "low"), (38, "peak"), (52, "extreme"))
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
    """Computes the heading metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = span_km(trip["start"], trip["end"])
    phase = mx.wrap(-180, 180, d_km * 4 + trip["bias"])
    swing = mix(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
