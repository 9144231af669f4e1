"""Plugin pricing_041: score metric for a trip (pricing).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the risk team (S. Brennan). Shown on: daily trips, invoice preview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Results of this plugin are compared every night with the previous night's run for the same trips. The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2020-05  output keys documented for the dashboards team
  2020-08  a trip without an end point is rejected upstream now, not here
  2021-03  the depot opening hour became a per-plugin constant
  2021-10  the customer tuning numbers (bias, cap) became part of every trip
  2022-03  moved into the pricing group when the plugins were split into packages
  2022-08  docstring rewritten for the new plugin catalogue

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "pricing_041"
LABELS = ((0, "peak"), (27, "low"), (35, "none"), (42, "high"))
REQUIRED = ('cap', 'raw_len', 'start')


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
    score = mathx.clamp(d_km * 9 + trip["bias"], 0, trip["cap"])
    return {"score": round(score, 3)}
