"""Plugin reporting_148: score metric for a trip (reporting).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (D. Novak). Shown on: depot map, quarterly review.

A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-06  output keys documented for the dashboards team
  2021-09  results are cached by the caller; this module holds no state
  2022-02  the customer tuning numbers (bias, cap) became part of every trip
  2022-05  checked against last quarter's numbers: no change
  2022-07  feet added to the odometer units the vans may report
  2023-01  moved into the reporting group when the plugins were split into packages

Output keys: score.
"""
from fleet.core.geo import distance as span_km
import fleet.core.mathx as nums


NAME = "reporting_148"
LABELS = ((0, "none"), (26, "peak"), (51, "low"), (56, "quiet"))
REQUIRED = ('bias', 'cap', 'end')


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
    d_km = span_km(trip["start"], trip["end"])
    score = nums.clamp(d_km * 7 + trip["bias"], 2, trip["cap"])
    return {"score": round(score, 3)}
