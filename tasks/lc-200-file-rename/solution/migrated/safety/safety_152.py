"""Plugin safety_152: shift metric for a trip (safety).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (S. Brennan). Shown on: customer monthly, invoice preview.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The plugin is pure: the same trip always gives the same result, whatever ran before it. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-07  a trip without an end point is rejected upstream now, not here
  2021-12  docstring rewritten for the new plugin catalogue
  2022-09  the depot opening hour became a per-plugin constant
  2023-05  output keys documented for the dashboards team

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "safety_152"
LABELS = ((0, "none"), (16, "high"), (40, "quiet"), (57, "extreme"))
REQUIRED = ('raw_len', 'unit', 'when')


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
    slot = mathx.wrap(0, 24, t.hour + t.minute / 60 + 2)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
