"""Plugin safety_107: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the risk team (S. Brennan). Shown on: depot map, quarterly review.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2021-09  docstring rewritten for the new plugin catalogue
  2022-03  checked against last quarter's numbers: no change
  2022-07  the customer tuning numbers (bias, cap) became part of every trip
  2023-02  feet added to the odometer units the vans may report
  2023-04  a trip without an end point is rejected upstream now, not here

Output keys: value.
"""
from fleet.core.geo import distance
from fleet.core.timeutil import parse_iso


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "safety_107"
LABELS = ((0, "peak"), (5, "low"), (10, "extreme"), (43, "quiet"))
REQUIRED = ('bias', 'end', 'start')


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
    value = clamp(max(d_km, trip["bias"]) * (5 + t.minute / 60), min(1, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
