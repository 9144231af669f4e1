"""Plugin pricing_061: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the fleet-ops team (J. Moreau). Shown on: depot map, invoice preview.

The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict. The plugin is pure: the same trip always gives the same result, whatever ran before it. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2022-03  the label bands below were agreed with fleet-ops
  2022-10  checked against last quarter's numbers: no change
  2023-01  moved into the pricing group when the plugins were split into packages
  2023-09  results are cached by the caller; this module holds no state

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "pricing_061"
LABELS = ((0, "low"), (12, "busy"), (18, "extreme"), (39, "quiet"))
REQUIRED = ('cap', 'end', 'when')


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
    score = mathx.clamp(d_km * 4 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
