"""Plugin safety_187: heading metric for a trip (safety).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the billing team (M. Lindqvist). Shown on: invoice preview, late arrivals.

Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. Start times without an offset are the depot's local time written as UTC by the vans. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2021-12  rounding of the output settled at three digits after the invoice review
  2022-02  kept out of the nightly recomputation at M. Lindqvist's request
  2022-05  output keys documented for the dashboards team
  2022-11  the customer tuning numbers (bias, cap) became part of every trip
  2023-05  docstring rewritten for the new plugin catalogue

Output keys: phase, swing.
"""
from fleet.core import geo, mathx


NAME = "safety_187"
LABELS = ((0, "high"), (19, "extreme"), (20, "busy"), (46, "quiet"))
REQUIRED = ('cap', 'start', 'unit')


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
    d_km = geo.haversine_km(trip["start"], trip["end"])
    phase = mathx.wrap(-180, 180, d_km * 9 + trip["bias"])
    swing = mathx.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
