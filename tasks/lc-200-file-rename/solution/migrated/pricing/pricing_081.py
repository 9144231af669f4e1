"""Plugin pricing_081: nested metric for a trip (pricing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the insights team (A. Okafor). Shown on: daily trips, late arrivals.

The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips. Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2020-04  moved into the pricing group when the plugins were split into packages
  2020-08  docstring rewritten for the new plugin catalogue
  2021-03  results are cached by the caller; this module holds no state
  2021-06  feet added to the odometer units the vans may report
  2021-10  the depot opening hour became a per-plugin constant

Output keys: value.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "pricing_081"
LABELS = ((0, "quiet"), (1, "peak"), (10, "busy"), (45, "none"))
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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = haversine_km(trip["start"], trip["end"])
    t = parse_timestamp(trip["when"])
    value = clamp(min(3, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (8 + t.minute / 60))
    return {"value": round(value, 3)}
