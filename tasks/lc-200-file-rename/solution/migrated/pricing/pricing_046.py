"""Plugin pricing_046: heading metric for a trip (pricing).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the billing team (E. Castillo). Shown on: invoice preview, quarterly review.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-01  rounding of the output settled at three digits after the invoice review
  2020-07  output keys documented for the dashboards team
  2020-09  checked against last quarter's numbers: no change
  2021-03  the customer tuning numbers (bias, cap) became part of every trip
  2021-06  docstring rewritten for the new plugin catalogue

Output keys: phase, swing.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import lerp, wrap


NAME = "pricing_046"
LABELS = ((0, "extreme"), (3, "low"), (8, "none"), (48, "high"))
REQUIRED = ('bias', 'cap', 'raw_len')


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
    phase = wrap(-180, 180, d_km * 4 + trip["bias"])
    swing = lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
