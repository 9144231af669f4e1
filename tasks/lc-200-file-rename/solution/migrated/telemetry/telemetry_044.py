"""Plugin telemetry_044: heading metric for a trip (telemetry).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the fleet-ops team (D. Novak). Shown on: driver week, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The bands in LABELS are for display only and do not change any number this module returns. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2019-12  rounding of the output settled at three digits after the invoice review
  2020-08  docstring rewritten for the new plugin catalogue
  2021-04  the customer tuning numbers (bias, cap) became part of every trip
  2021-10  checked against last quarter's numbers: no change
  2022-02  the label bands below were agreed with fleet-ops
  2022-08  feet added to the odometer units the vans may report

Output keys: phase, swing.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import lerp, wrap


NAME = "telemetry_044"
LABELS = ((0, "moderate"), (14, "quiet"), (27, "busy"), (48, "low"))
REQUIRED = ('cap', 'end', 'raw_len')


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
    d_km = haversine_km(trip["start"], trip["end"])
    phase = wrap(-180, 180, d_km * 2 + trip["bias"])
    swing = lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
