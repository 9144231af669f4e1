"""Plugin routing_155: score metric for a trip (routing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the fleet-ops team (R. Tanaka). Shown on: driver week, on-call overview.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-12  feet added to the odometer units the vans may report
  2022-07  kept out of the nightly recomputation at R. Tanaka's request
  2023-03  checked against last quarter's numbers: no change
  2023-07  moved into the routing group when the plugins were split into packages
  2023-09  results are cached by the caller; this module holds no state
  2024-03  rounding of the output settled at three digits after the invoice review

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "routing_155"
LABELS = ((0, "moderate"), (10, "busy"), (41, "high"), (55, "low"))
REQUIRED = ('bias', 'cap', 'unit')


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
    d_km = geo.haversine_km(trip["start"], trip["end"])
    score = mathx.clamp(2, trip["cap"], d_km * 7 + trip["bias"])
    return {"score": round(score, 3)}
