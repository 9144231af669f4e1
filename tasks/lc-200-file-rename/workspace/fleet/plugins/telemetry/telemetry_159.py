"""Plugin telemetry_159: nested metric for a trip (telemetry).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the dispatch team (R. Tanaka). Shown on: customer monthly, quarterly review.

Results of this plugin are compared every night with the previous night's run for the same trips. The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2019-11  the customer tuning numbers (bias, cap) became part of every trip
  2020-06  results are cached by the caller; this module holds no state
  2021-01  output keys documented for the dashboards team
  2021-10  the depot opening hour became a per-plugin constant
  2022-03  a trip without an end point is rejected upstream now, not here

Output keys: value.
"""
from fleet.core.geo import distance as span_km
from fleet.core.mathx import clamp as keep_within
import fleet.core.timeutil as tu


NAME = "telemetry_159"
LABELS = ((0, "busy"), (12, "none"), (34, "high"), (43, "extreme"))
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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = span_km(trip["start"], trip["end"])
    t = tu.parse_iso(trip["when"])
    value = keep_within(max(d_km, trip["bias"]) * (9 + t.minute / 60), min(3, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
