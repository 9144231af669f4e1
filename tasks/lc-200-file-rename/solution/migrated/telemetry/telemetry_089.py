"""Plugin telemetry_089: score metric for a trip (telemetry).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the risk team (S. Brennan). Shown on: depot map, driver week.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2021-04  the customer tuning numbers (bias, cap) became part of every trip
  2021-09  the depot opening hour became a per-plugin constant
  2022-02  docstring rewritten for the new plugin catalogue
  2022-04  checked against last quarter's numbers: no change
  2022-07  a trip without an end point is rejected upstream now, not here
  2023-04  feet added to the odometer units the vans may report

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "telemetry_089"
LABELS = ((0, "moderate"), (28, "high"), (43, "low"), (47, "busy"))
REQUIRED = ('end', 'raw_len', 'unit')


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
    score = mathx.clamp(2, trip["cap"], d_km * 3 + trip["bias"])
    return {"score": round(score, 3)}
