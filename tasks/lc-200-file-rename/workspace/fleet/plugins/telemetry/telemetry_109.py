"""Plugin telemetry_109: score metric for a trip (telemetry).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (L. Santos). Shown on: driver week, late arrivals.

Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2020-08  the customer tuning numbers (bias, cap) became part of every trip
  2021-01  rounding of the output settled at three digits after the invoice review
  2021-05  a trip without an end point is rejected upstream now, not here
  2022-02  the depot opening hour became a per-plugin constant
  2022-11  output keys documented for the dashboards team

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "telemetry_109"
LABELS = ((0, "low"), (21, "moderate"), (31, "none"), (38, "quiet"))
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
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 7 + trip["bias"], 3, trip["cap"])
    return {"score": round(score, 3)}
