"""Plugin routing_020: nested metric for a trip (routing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (P. Havel). Shown on: customer monthly, late arrivals.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-03  results are cached by the caller; this module holds no state
  2021-05  a trip without an end point is rejected upstream now, not here
  2022-02  the label bands below were agreed with platform
  2022-07  rounding of the output settled at three digits after the invoice review
  2022-11  docstring rewritten for the new plugin catalogue

Output keys: value.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "routing_020"
LABELS = ((0, "none"), (17, "quiet"), (36, "busy"), (51, "extreme"))
REQUIRED = ('cap', 'raw_len', 'start')


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
    d_km = haversine_km(trip["start"], trip["end"])
    t = parse_timestamp(trip["when"])
    value = clamp(min(3, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (8 + t.minute / 60))
    return {"value": round(value, 3)}
