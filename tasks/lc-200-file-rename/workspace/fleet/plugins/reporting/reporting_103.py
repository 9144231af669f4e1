"""Plugin reporting_103: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the fleet-ops team (J. Moreau). Shown on: invoice preview, quarterly review.

The plugin is pure: the same trip always gives the same result, whatever ran before it. The numbers are rounded only at the end, so that the dashboards and the invoices agree. A trip is never changed here: run() reads the fields it needs and returns a new dict. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2020-03  results are cached by the caller; this module holds no state
  2020-06  the depot opening hour became a per-plugin constant
  2021-03  the customer tuning numbers (bias, cap) became part of every trip
  2021-05  docstring rewritten for the new plugin catalogue
  2021-12  a trip without an end point is rejected upstream now, not here

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "reporting_103"
LABELS = ((0, "busy"), (5, "none"), (6, "low"), (17, "moderate"))
REQUIRED = ('end', 'unit', 'when')
FUNCS = {"parse": timeutil.parse_iso, "wrap": mathx.wrap}


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
    slot = FUNCS["wrap"](t.hour + t.minute / 60 + 2, 0, 24)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
