"""Plugin reporting_168: score metric for a trip (reporting).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the risk team (M. Lindqvist). Shown on: driver week, invoice preview.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2022-02  kept out of the nightly recomputation at M. Lindqvist's request
  2022-10  moved into the reporting group when the plugins were split into packages
  2023-04  output keys documented for the dashboards team
  2023-11  the label bands below were agreed with risk
  2024-01  checked against last quarter's numbers: no change

Output keys: score.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp


NAME = "reporting_168"
LABELS = ((0, "none"), (11, "busy"), (27, "peak"), (36, "low"))
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
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 7 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
