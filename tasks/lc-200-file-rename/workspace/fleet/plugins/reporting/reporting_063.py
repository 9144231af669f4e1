"""Plugin reporting_063: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the customer success team (E. Castillo). Shown on: depot map, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. Start times without an offset are the depot's local time written as UTC by the vans. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2022-04  the depot opening hour became a per-plugin constant
  2022-12  rounding of the output settled at three digits after the invoice review
  2023-02  the customer tuning numbers (bias, cap) became part of every trip
  2023-05  checked against last quarter's numbers: no change

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "reporting_063"
LABELS = ((0, "high"), (4, "low"), (33, "busy"), (46, "extreme"))
REQUIRED = ('bias', 'cap', 'unit')


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
    slot = mathx.wrap(t.hour + t.minute / 60 + 8, 0, 24)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
