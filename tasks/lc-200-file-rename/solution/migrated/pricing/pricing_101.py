"""Plugin pricing_101: shift metric for a trip (pricing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the dispatch team (J. Moreau). Shown on: late arrivals, on-call overview.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Trips recorded before the odometer units were added are converted upstream, not here. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-02  the label bands below were agreed with dispatch
  2020-05  the customer tuning numbers (bias, cap) became part of every trip
  2020-09  checked against last quarter's numbers: no change
  2020-12  moved into the pricing group when the plugins were split into packages
  2021-03  feet added to the odometer units the vans may report

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "pricing_101"
LABELS = ((0, "low"), (9, "extreme"), (32, "quiet"), (49, "peak"))
REQUIRED = ('bias', 'cap', 'when')


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
    slot = mathx.wrap(0, 24, t.hour + t.minute / 60 + 8)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
