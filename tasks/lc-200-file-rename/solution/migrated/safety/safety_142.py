"""Plugin safety_142: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the dispatch team (J. Moreau). Shown on: customer monthly, invoice preview.

The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error. Results of this plugin are compared every night with the previous night's run for the same trips. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2019-07  the depot opening hour became a per-plugin constant
  2020-04  a trip without an end point is rejected upstream now, not here
  2020-09  the label bands below were agreed with dispatch
  2021-01  checked against last quarter's numbers: no change
  2021-03  the customer tuning numbers (bias, cap) became part of every trip

Output keys: score.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp


NAME = "safety_142"
LABELS = ((0, "low"), (9, "extreme"), (32, "high"), (53, "none"))
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
    d_km = haversine_km(trip["start"], trip["end"])
    score = clamp(1, trip["cap"], d_km * 4 + trip["bias"])
    return {"score": round(score, 3)}
