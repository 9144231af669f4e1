"""Plugin safety_137: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the billing team (P. Havel). Shown on: customer monthly, invoice preview.

Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2022-05  moved into the safety group when the plugins were split into packages
  2023-02  rounding of the output settled at three digits after the invoice review
  2023-10  docstring rewritten for the new plugin catalogue
  2023-12  checked against last quarter's numbers: no change

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "safety_137"
LABELS = ((0, "moderate"), (26, "busy"), (29, "extreme"), (44, "peak"))
REQUIRED = ('end', 'start', 'when')


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
    score = mathx.clamp(d_km * 6 + trip["bias"], 3, trip["cap"])
    return {"score": round(score, 3)}
