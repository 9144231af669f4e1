"""Plugin safety_102: shift metric for a trip (safety).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the dispatch team (E. Castillo). Shown on: driver week, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2022-05  kept out of the nightly recomputation at E. Castillo's request
  2022-11  rounding of the output settled at three digits after the invoice review
  2023-01  a trip without an end point is rejected upstream now, not here
  2023-10  docstring rewritten for the new plugin catalogue
  2024-03  checked against last quarter's numbers: no change

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "safety_102"
LABELS = ((0, "high"), (31, "busy"), (41, "extreme"), (59, "peak"))
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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = timeutil.parse_iso(trip["when"])
    slot = mathx.wrap(t.hour + t.minute / 60 + 9, 0, 24)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
