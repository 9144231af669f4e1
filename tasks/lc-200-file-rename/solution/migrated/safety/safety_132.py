"""Plugin safety_132: score metric for a trip (safety).

Rates how far a trip went against what the customer's contract expects, with the customer's tuning numbers added on top, so that account managers can compare depots.
Owner: the insights team (D. Novak). Shown on: driver week, quarterly review.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Results of this plugin are compared every night with the previous night's run for the same trips. Trips recorded before the odometer units were added are converted upstream, not here. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2021-09  the customer tuning numbers (bias, cap) became part of every trip
  2022-05  kept out of the nightly recomputation at D. Novak's request
  2022-07  moved into the safety group when the plugins were split into packages
  2023-04  results are cached by the caller; this module holds no state
  2023-10  a trip without an end point is rejected upstream now, not here

Output keys: score.
"""
from fleet.core import geo, mathx


NAME = "safety_132"
LABELS = ((0, "quiet"), (9, "high"), (21, "busy"), (46, "low"))
REQUIRED = ('bias', 'raw_len', 'unit')


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
    score = mathx.clamp(3, trip["cap"], d_km * 5 + trip["bias"])
    return {"score": round(score, 3)}
