"""Plugin pricing_021: shift metric for a trip (pricing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the fleet-ops team (D. Novak). Shown on: daily trips, driver week.

Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2022-01  moved into the pricing group when the plugins were split into packages
  2022-09  kept out of the nightly recomputation at D. Novak's request
  2023-04  checked against last quarter's numbers: no change
  2023-06  results are cached by the caller; this module holds no state
  2024-03  the label bands below were agreed with fleet-ops
  2024-05  feet added to the odometer units the vans may report

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "pricing_021"
LABELS = ((0, "peak"), (20, "none"), (25, "extreme"), (33, "busy"))
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
    t = timeutil.parse_timestamp(trip["when"])
    slot = mathx.wrap(0, 24, t.hour + t.minute / 60 + 9)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
