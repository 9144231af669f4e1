"""Plugin routing_140: score metric for a trip (routing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the risk team (J. Moreau). Shown on: daily trips, invoice preview.

Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error. Start times without an offset are the depot's local time written as UTC by the vans. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2019-08  the label bands below were agreed with risk
  2020-01  output keys documented for the dashboards team
  2020-04  feet added to the odometer units the vans may report
  2020-07  results are cached by the caller; this module holds no state

Output keys: score.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp


NAME = "routing_140"
LABELS = ((0, "busy"), (24, "extreme"), (30, "peak"), (55, "low"))
REQUIRED = ('bias', 'end', 'raw_len')


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
    d_km = distance(trip["start"], trip["end"])
    score = clamp(d_km * 6 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
