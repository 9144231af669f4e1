"""Plugin routing_045: score metric for a trip (routing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (P. Havel). Shown on: daily trips, invoice preview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Results of this plugin are compared every night with the previous night's run for the same trips. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-01  the label bands below were agreed with insights
  2020-06  docstring rewritten for the new plugin catalogue
  2020-10  feet added to the odometer units the vans may report
  2021-01  the depot opening hour became a per-plugin constant
  2021-06  rounding of the output settled at three digits after the invoice review
  2021-10  the customer tuning numbers (bias, cap) became part of every trip

Output keys: score.
"""
from fleet.core.geo import haversine_km as distance_fn
import fleet.core.mathx as nums


NAME = "routing_045"
LABELS = ((0, "low"), (36, "busy"), (54, "quiet"), (58, "moderate"))
REQUIRED = ('bias', 'cap', 'when')


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
    d_km = distance_fn(trip["start"], trip["end"])
    score = nums.clamp(2, trip["cap"], d_km * 9 + trip["bias"])
    return {"score": round(score, 3)}
