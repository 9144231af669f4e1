"""Plugin telemetry_054: nested metric for a trip (telemetry).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the insights team (R. Tanaka). Shown on: depot map, on-call overview.

Results of this plugin are compared every night with the previous night's run for the same trips. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Start times without an offset are the depot's local time written as UTC by the vans. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-09  the depot opening hour became a per-plugin constant
  2021-03  results are cached by the caller; this module holds no state
  2021-08  moved into the telemetry group when the plugins were split into packages
  2022-04  output keys documented for the dashboards team
  2022-11  docstring rewritten for the new plugin catalogue
  2023-07  a trip without an end point is rejected upstream now, not here

Output keys: value.
"""
from fleet.core import geo, mathx, timeutil


NAME = "telemetry_054"
LABELS = ((0, "peak"), (27, "high"), (34, "quiet"), (50, "low"))
REQUIRED = ('bias', 'cap', 'when')


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
    d_km = geo.haversine_km(trip["start"], trip["end"])
    t = timeutil.parse_timestamp(trip["when"])
    value = mathx.clamp(min(3, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (6 + t.minute / 60))
    return {"value": round(value, 3)}
