"""Plugin pricing_096: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the platform team (R. Tanaka). Shown on: depot map, invoice preview.

The bands in LABELS are for display only and do not change any number this module returns. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Results of this plugin are compared every night with the previous night's run for the same trips. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2022-07  moved into the pricing group when the plugins were split into packages
  2022-10  the depot opening hour became a per-plugin constant
  2023-04  output keys documented for the dashboards team
  2023-11  the customer tuning numbers (bias, cap) became part of every trip
  2024-03  feet added to the odometer units the vans may report
  2024-05  the label bands below were agreed with platform

Output keys: score.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp


NAME = "pricing_096"
LABELS = ((0, "moderate"), (12, "extreme"), (34, "peak"), (59, "none"))
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
    d_km = haversine_km(trip["start"], trip["end"])
    score = clamp(2, trip["cap"], d_km * 6 + trip["bias"])
    return {"score": round(score, 3)}
