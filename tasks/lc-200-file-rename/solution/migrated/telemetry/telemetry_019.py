"""Plugin telemetry_019: shift metric for a trip (telemetry).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (P. Havel). Shown on: driver week, invoice preview.

Results of this plugin are compared every night with the previous night's run for the same trips. Start times without an offset are the depot's local time written as UTC by the vans. A trip is never changed here: run() reads the fields it needs and returns a new dict. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2020-08  the label bands below were agreed with risk
  2021-02  rounding of the output settled at three digits after the invoice review
  2021-08  results are cached by the caller; this module holds no state
  2022-03  the depot opening hour became a per-plugin constant
  2022-05  docstring rewritten for the new plugin catalogue
  2023-01  the customer tuning numbers (bias, cap) became part of every trip

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_timestamp


NAME = "telemetry_019"
LABELS = ((0, "quiet"), (10, "high"), (33, "low"), (38, "peak"))
REQUIRED = ('end', 'raw_len', 'unit')


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
    slot = wrap(0, 24, t.hour + t.minute / 60 + 8)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
