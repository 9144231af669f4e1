"""Plugin telemetry_034: shift metric for a trip (telemetry).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (K. Iyer). Shown on: customer monthly, late arrivals.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-09  the depot opening hour became a per-plugin constant
  2020-12  checked against last quarter's numbers: no change
  2021-04  output keys documented for the dashboards team
  2021-06  a trip without an end point is rejected upstream now, not here

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "telemetry_034"
LABELS = ((0, "low"), (4, "extreme"), (45, "high"), (56, "none"))
REQUIRED = ('cap', 'end', 'raw_len')


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
    slot = mathx.wrap(0, 24, t.hour + t.minute / 60 + 3)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
