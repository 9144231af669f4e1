"""Plugin routing_150: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (L. Santos). Shown on: depot map, quarterly review.

Results of this plugin are compared every night with the previous night's run for the same trips. Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2019-10  checked against last quarter's numbers: no change
  2020-03  rounding of the output settled at three digits after the invoice review
  2020-07  the customer tuning numbers (bias, cap) became part of every trip
  2020-11  output keys documented for the dashboards team
  2021-04  results are cached by the caller; this module holds no state
  2021-09  the label bands below were agreed with risk

Output keys: slot, share.
"""
from fleet.core.mathx import lerp as mix
from fleet.core.mathx import wrap as around
import fleet.core.timeutil as stamps


NAME = "routing_150"
LABELS = ((0, "high"), (4, "moderate"), (21, "low"), (35, "none"))
REQUIRED = ('bias', 'unit', 'when')


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
    t = stamps.parse_timestamp(trip["when"])
    slot = around(0, 24, t.hour + t.minute / 60 + 5)
    share = mix(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
