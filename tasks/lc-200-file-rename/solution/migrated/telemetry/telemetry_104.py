"""Plugin telemetry_104: nested metric for a trip (telemetry).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (L. Santos). Shown on: depot map, late arrivals.

The bands in LABELS are for display only and do not change any number this module returns. Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2019-07  the depot opening hour became a per-plugin constant
  2019-10  results are cached by the caller; this module holds no state
  2020-06  moved into the telemetry group when the plugins were split into packages
  2020-10  docstring rewritten for the new plugin catalogue

Output keys: value.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "telemetry_104"
LABELS = ((0, "extreme"), (36, "none"), (48, "peak"), (50, "high"))
REQUIRED = ('raw_len', 'start', 'unit')


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
    value = clamp(min(0, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (9 + t.minute / 60))
    return {"value": round(value, 3)}
