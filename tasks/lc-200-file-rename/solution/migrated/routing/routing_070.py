"""Plugin routing_070: heading metric for a trip (routing).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the platform team (K. Iyer). Shown on: invoice preview, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2021-04  the label bands below were agreed with platform
  2022-01  the depot opening hour became a per-plugin constant
  2022-04  kept out of the nightly recomputation at K. Iyer's request
  2022-10  output keys documented for the dashboards team
  2023-04  a trip without an end point is rejected upstream now, not here

Output keys: phase, swing.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import lerp, wrap


NAME = "routing_070"
LABELS = ((0, "moderate"), (10, "extreme"), (40, "peak"), (44, "quiet"))
REQUIRED = ('raw_len', 'start', 'unit')


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
