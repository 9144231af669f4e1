"""Plugin routing_025: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the platform team (J. Moreau). Shown on: customer monthly, driver week.

The plugin is pure: the same trip always gives the same result, whatever ran before it. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2021-07  moved into the routing group when the plugins were split into packages
  2022-03  rounding of the output settled at three digits after the invoice review
  2022-05  feet added to the odometer units the vans may report
  2022-07  the depot opening hour became a per-plugin constant
  2022-09  a trip without an end point is rejected upstream now, not here
  2023-02  the label bands below were agreed with platform

Output keys: slot, share.
"""
from fleet.core.mathx import wrap as fold
from fleet.core.timeutil import parse_timestamp as read_when
import fleet.core.mathx as numeric


NAME = "routing_025"
LABELS = ((0, "high"), (1, "extreme"), (11, "none"), (55, "moderate"))
REQUIRED = ('end', 'start', 'when')


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
    t = read_when(trip["when"])
    slot = fold(0, 24, t.hour + t.minute / 60 + 5)
    share = numeric.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
