"""Plugin routing_040: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the platform team (L. Santos). Shown on: driver week, quarterly review.

The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2021-04  kept out of the nightly recomputation at L. Santos's request
  2021-07  the label bands below were agreed with platform
  2022-03  the depot opening hour became a per-plugin constant
  2022-07  output keys documented for the dashboards team
  2023-03  feet added to the odometer units the vans may report
  2023-08  rounding of the output settled at three digits after the invoice review

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "routing_040"
LABELS = ((0, "peak"), (29, "high"), (35, "busy"), (44, "extreme"))
REQUIRED = ('end', 'raw_len', 'unit')


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
    t = timeutil.parse_timestamp(trip["when"])
    slot = mathx.wrap(0, 24, t.hour + t.minute / 60 + 5)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
