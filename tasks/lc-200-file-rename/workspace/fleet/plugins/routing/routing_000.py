"""Plugin routing_000: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the fleet-ops team (J. Moreau). Shown on: customer monthly, quarterly review.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2022-05  a trip without an end point is rejected upstream now, not here
  2022-12  output keys documented for the dashboards team
  2023-08  the customer tuning numbers (bias, cap) became part of every trip
  2024-04  feet added to the odometer units the vans may report
  2024-10  the label bands below were agreed with fleet-ops

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "routing_000"
LABELS = ((0, "busy"), (25, "low"), (43, "quiet"), (49, "moderate"))
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
    t = timeutil.parse_iso(trip["when"])
    slot = mathx.wrap(t.hour + t.minute / 60 + 6, 0, 24)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
