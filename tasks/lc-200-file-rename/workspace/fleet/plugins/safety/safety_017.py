"""Plugin safety_017: shift metric for a trip (safety).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the billing team (K. Iyer). Shown on: invoice preview, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The customer tuning numbers come from the contract database; a missing one is an upstream error. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-06  moved into the safety group when the plugins were split into packages
  2021-10  output keys documented for the dashboards team
  2022-02  docstring rewritten for the new plugin catalogue
  2022-08  kept out of the nightly recomputation at K. Iyer's request
  2023-04  the depot opening hour became a per-plugin constant
  2023-11  checked against last quarter's numbers: no change

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_iso


NAME = "safety_017"
LABELS = ((0, "low"), (23, "none"), (36, "busy"), (53, "quiet"))
REQUIRED = ('bias', 'unit', 'when')


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
    slot = wrap(t.hour + t.minute / 60 + 3, 0, 24)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
