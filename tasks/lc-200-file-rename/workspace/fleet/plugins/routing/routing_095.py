"""Plugin routing_095: score metric for a trip (routing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (P. Havel). Shown on: depot map, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2022-01  moved into the routing group when the plugins were split into packages
  2022-10  feet added to the odometer units the vans may report
  2022-12  the label bands below were agreed with insights
  2023-02  docstring rewritten for the new plugin catalogue
  2023-07  a trip without an end point is rejected upstream now, not here

Output keys: score.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp


NAME = "routing_095"
LABELS = ((0, "quiet"), (4, "high"), (24, "low"), (55, "peak"))
REQUIRED = ('cap', 'raw_len', 'unit')


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
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 2 + trip["bias"], 3, trip["cap"])
    return {"score": round(score, 3)}
