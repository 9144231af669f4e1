"""Plugin pricing_126: shift metric for a trip (pricing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the dispatch team (K. Iyer). Shown on: daily trips, on-call overview.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Start times without an offset are the depot's local time written as UTC by the vans. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2019-08  kept out of the nightly recomputation at K. Iyer's request
  2020-01  checked against last quarter's numbers: no change
  2020-04  the customer tuning numbers (bias, cap) became part of every trip
  2020-09  docstring rewritten for the new plugin catalogue
  2021-02  moved into the pricing group when the plugins were split into packages
  2021-10  the depot opening hour became a per-plugin constant

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_timestamp


NAME = "pricing_126"
LABELS = ((0, "busy"), (3, "high"), (7, "quiet"), (40, "extreme"))
REQUIRED = ('cap', 'start', 'unit')


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
    t = parse_timestamp(trip["when"])
    slot = wrap(0, 24, t.hour + t.minute / 60 + 3)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
