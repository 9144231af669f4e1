"""Plugin reporting_138: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the fleet-ops team (S. Brennan). Shown on: depot map, on-call overview.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2020-04  moved into the reporting group when the plugins were split into packages
  2020-12  results are cached by the caller; this module holds no state
  2021-05  checked against last quarter's numbers: no change
  2021-11  feet added to the odometer units the vans may report
  2022-01  the depot opening hour became a per-plugin constant
  2022-07  the label bands below were agreed with fleet-ops

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_iso


NAME = "reporting_138"
LABELS = ((0, "high"), (7, "busy"), (8, "moderate"), (18, "none"))
REQUIRED = ('raw_len', 'start', 'unit')


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
    slot = wrap(t.hour + t.minute / 60 + 6, 0, 24)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
