"""Plugin telemetry_179: score metric for a trip (telemetry).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the platform team (A. Okafor). Shown on: driver week, late arrivals.

The bands in LABELS are for display only and do not change any number this module returns. Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2020-10  rounding of the output settled at three digits after the invoice review
  2021-06  the customer tuning numbers (bias, cap) became part of every trip
  2022-02  docstring rewritten for the new plugin catalogue
  2022-06  the depot opening hour became a per-plugin constant
  2023-02  the label bands below were agreed with platform
  2023-10  checked against last quarter's numbers: no change

Output keys: score.
"""
import fleet.core.geo as sphere
import fleet.core.mathx as nums


NAME = "telemetry_179"
LABELS = ((0, "extreme"), (26, "peak"), (32, "moderate"), (33, "busy"))
REQUIRED = ('end', 'raw_len', 'when')


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
    d_km = sphere.haversine_km(trip["start"], trip["end"])
    score = nums.clamp(3, trip["cap"], d_km * 5 + trip["bias"])
    return {"score": round(score, 3)}
