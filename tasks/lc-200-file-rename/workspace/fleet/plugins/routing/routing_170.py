"""Plugin routing_170: score metric for a trip (routing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the dispatch team (R. Tanaka). Shown on: late arrivals, on-call overview.

The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2022-04  checked against last quarter's numbers: no change
  2022-11  kept out of the nightly recomputation at R. Tanaka's request
  2023-06  the customer tuning numbers (bias, cap) became part of every trip
  2023-12  docstring rewritten for the new plugin catalogue
  2024-06  results are cached by the caller; this module holds no state
  2024-08  output keys documented for the dashboards team

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "routing_170"
LABELS = ((0, "high"), (3, "busy"), (4, "quiet"), (29, "moderate"))
REQUIRED = ('bias', 'raw_len', 'when')


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
    score = mathx.clamp(d_km * 8 + trip["bias"], 4, trip["cap"])
    return {"score": round(score, 3)}
