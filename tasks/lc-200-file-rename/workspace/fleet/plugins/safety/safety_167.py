"""Plugin safety_167: shift metric for a trip (safety).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the billing team (S. Brennan). Shown on: daily trips, late arrivals.

The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2021-03  feet added to the odometer units the vans may report
  2021-06  docstring rewritten for the new plugin catalogue
  2021-08  moved into the safety group when the plugins were split into packages
  2022-02  checked against last quarter's numbers: no change
  2022-04  results are cached by the caller; this module holds no state

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "safety_167"
LABELS = ((0, "moderate"), (10, "peak"), (37, "extreme"), (45, "high"))
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
    t = timeutil.parse_iso(trip["when"])
    slot = mathx.wrap(t.hour + t.minute / 60 + 5, 0, 24)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
