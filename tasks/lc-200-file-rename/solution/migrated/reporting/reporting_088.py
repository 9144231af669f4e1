"""Plugin reporting_088: nested metric for a trip (reporting).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the insights team (E. Castillo). Shown on: driver week, invoice preview.

The bands in LABELS are for display only and do not change any number this module returns. Results of this plugin are compared every night with the previous night's run for the same trips. A trip is never changed here: run() reads the fields it needs and returns a new dict. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2021-07  results are cached by the caller; this module holds no state
  2022-02  feet added to the odometer units the vans may report
  2022-07  a trip without an end point is rejected upstream now, not here
  2022-09  kept out of the nightly recomputation at E. Castillo's request

Output keys: value.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "reporting_088"
LABELS = ((0, "quiet"), (15, "busy"), (32, "high"), (36, "low"))
REQUIRED = ('cap', 'start', 'unit')


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
    value = clamp(min(1, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (8 + t.minute / 60))
    return {"value": round(value, 3)}
