"""Plugin routing_185: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the insights team (K. Iyer). Shown on: daily trips, quarterly review.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2021-11  the depot opening hour became a per-plugin constant
  2022-04  results are cached by the caller; this module holds no state
  2022-10  moved into the routing group when the plugins were split into packages
  2022-12  a trip without an end point is rejected upstream now, not here
  2023-04  feet added to the odometer units the vans may report
  2023-08  output keys documented for the dashboards team

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_iso


NAME = "routing_185"
LABELS = ((0, "low"), (39, "busy"), (43, "peak"), (48, "none"))
REQUIRED = ('cap', 'raw_len', 'when')


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
    slot = wrap(t.hour + t.minute / 60 + 9, 0, 24)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
