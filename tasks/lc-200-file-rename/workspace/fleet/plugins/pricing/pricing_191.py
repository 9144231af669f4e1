"""Plugin pricing_191: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (D. Novak). Shown on: invoice preview, late arrivals.

The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. Results of this plugin are compared every night with the previous night's run for the same trips. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-07  the depot opening hour became a per-plugin constant
  2020-12  results are cached by the caller; this module holds no state
  2021-02  output keys documented for the dashboards team
  2021-10  the label bands below were agreed with insights
  2022-01  a trip without an end point is rejected upstream now, not here
  2022-07  feet added to the odometer units the vans may report

Output keys: score.
"""
from fleet.core.geo import distance as gc_km
import fleet.core.mathx as numeric


NAME = "pricing_191"
LABELS = ((0, "extreme"), (6, "low"), (11, "high"), (35, "peak"))
REQUIRED = ('bias', 'cap', 'start')


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
    d_km = gc_km(trip["start"], trip["end"])
    score = numeric.clamp(d_km * 3 + trip["bias"], 0, trip["cap"])
    return {"score": round(score, 3)}
