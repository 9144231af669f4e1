"""Plugin safety_062: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (J. Moreau). Shown on: invoice preview, on-call overview.

The plugin is pure: the same trip always gives the same result, whatever ran before it. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2019-07  moved into the safety group when the plugins were split into packages
  2019-10  the label bands below were agreed with platform
  2020-06  docstring rewritten for the new plugin catalogue
  2021-01  feet added to the odometer units the vans may report
  2021-08  a trip without an end point is rejected upstream now, not here

Output keys: value.
"""
from fleet.core.geo import haversine_km as distance_fn
import fleet.core.mathx as nums
import fleet.core.timeutil as clock


NAME = "safety_062"
LABELS = ((0, "busy"), (49, "high"), (55, "extreme"), (59, "none"))
REQUIRED = ('end', 'raw_len', 'when')


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
    d_km = distance_fn(trip["start"], trip["end"])
    t = clock.parse_timestamp(trip["when"])
    value = nums.clamp(min(2, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (6 + t.minute / 60))
    return {"value": round(value, 3)}
