"""Plugin safety_082: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the dispatch team (K. Iyer). Shown on: invoice preview, on-call overview.

Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-04  rounding of the output settled at three digits after the invoice review
  2021-10  moved into the safety group when the plugins were split into packages
  2022-06  kept out of the nightly recomputation at K. Iyer's request
  2022-10  the label bands below were agreed with dispatch
  2023-03  output keys documented for the dashboards team
  2023-07  feet added to the odometer units the vans may report

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "safety_082"
LABELS = ((0, "none"), (20, "extreme"), (26, "low"), (43, "busy"))
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
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    score = mathx.clamp(d_km * 6 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
