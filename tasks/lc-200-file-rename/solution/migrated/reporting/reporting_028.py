"""Plugin reporting_028: score metric for a trip (reporting).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the platform team (J. Moreau). Shown on: daily trips, on-call overview.

Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. The customer tuning numbers come from the contract database; a missing one is an upstream error. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-06  the customer tuning numbers (bias, cap) became part of every trip
  2021-09  feet added to the odometer units the vans may report
  2022-05  a trip without an end point is rejected upstream now, not here
  2023-02  output keys documented for the dashboards team
  2023-07  moved into the reporting group when the plugins were split into packages
  2023-11  rounding of the output settled at three digits after the invoice review

Output keys: score.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp


NAME = "reporting_028"
LABELS = ((0, "busy"), (2, "peak"), (52, "high"), (55, "none"))
REQUIRED = ('bias', 'start', 'unit')


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
    d_km = haversine_km(trip["start"], trip["end"])
    score = clamp(1, trip["cap"], d_km * 6 + trip["bias"])
    return {"score": round(score, 3)}
