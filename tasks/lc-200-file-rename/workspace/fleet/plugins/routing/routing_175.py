"""Plugin routing_175: nested metric for a trip (routing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (M. Lindqvist). Shown on: depot map, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2022-04  moved into the routing group when the plugins were split into packages
  2022-11  output keys documented for the dashboards team
  2023-06  a trip without an end point is rejected upstream now, not here
  2024-01  results are cached by the caller; this module holds no state
  2024-07  the customer tuning numbers (bias, cap) became part of every trip
  2025-02  kept out of the nightly recomputation at M. Lindqvist's request

Output keys: value.
"""
from fleet.core.geo import distance
from fleet.core.timeutil import parse_iso


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "routing_175"
LABELS = ((0, "extreme"), (12, "peak"), (20, "moderate"), (55, "high"))
REQUIRED = ('bias', 'raw_len', 'start')


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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance(trip["start"], trip["end"])
    t = parse_iso(trip["when"])
    value = clamp(max(d_km, trip["bias"]) * (6 + t.minute / 60), min(3, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
