"""Plugin pricing_156: shift metric for a trip (pricing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the insights team (A. Okafor). Shown on: depot map, driver week.

A trip is never changed here: run() reads the fields it needs and returns a new dict. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2021-10  the depot opening hour became a per-plugin constant
  2021-12  moved into the pricing group when the plugins were split into packages
  2022-02  output keys documented for the dashboards team
  2022-10  a trip without an end point is rejected upstream now, not here
  2023-07  kept out of the nightly recomputation at A. Okafor's request

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_timestamp


NAME = "pricing_156"
LABELS = ((0, "quiet"), (45, "low"), (47, "moderate"), (58, "busy"))
REQUIRED = ('cap', 'start', 'when')


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
    slot = wrap(0, 24, t.hour + t.minute / 60 + 6)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
