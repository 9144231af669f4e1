"""Plugin safety_087: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the billing team (J. Moreau). Shown on: customer monthly, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-03  a trip without an end point is rejected upstream now, not here
  2021-12  the customer tuning numbers (bias, cap) became part of every trip
  2022-05  checked against last quarter's numbers: no change
  2022-11  feet added to the odometer units the vans may report
  2023-05  moved into the safety group when the plugins were split into packages

Output keys: score.
"""
from fleet.core.mathx import clamp as limit
import fleet.core.geo as geom


NAME = "safety_087"
LABELS = ((0, "extreme"), (24, "peak"), (28, "low"), (59, "busy"))
REQUIRED = ('raw_len', 'unit', 'when')


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
    d_km = geom.distance(trip["start"], trip["end"])
    score = limit(d_km * 9 + trip["bias"], 0, trip["cap"])
    return {"score": round(score, 3)}
