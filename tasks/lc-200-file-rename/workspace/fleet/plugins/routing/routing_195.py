"""Plugin routing_195: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the platform team (P. Havel). Shown on: late arrivals, quarterly review.

Results of this plugin are compared every night with the previous night's run for the same trips. Start times without an offset are the depot's local time written as UTC by the vans. The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-02  docstring rewritten for the new plugin catalogue
  2021-04  the customer tuning numbers (bias, cap) became part of every trip
  2021-09  checked against last quarter's numbers: no change
  2022-01  feet added to the odometer units the vans may report

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_iso


NAME = "routing_195"
LABELS = ((0, "peak"), (7, "moderate"), (48, "high"), (59, "extreme"))
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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = parse_iso(trip["when"])
    slot = wrap(t.hour + t.minute / 60 + 8, 0, 24)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
