"""Plugin reporting_128: nested metric for a trip (reporting).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the insights team (P. Havel). Shown on: daily trips, late arrivals.

The customer tuning numbers come from the contract database; a missing one is an upstream error. Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2019-08  the customer tuning numbers (bias, cap) became part of every trip
  2020-04  kept out of the nightly recomputation at P. Havel's request
  2020-06  output keys documented for the dashboards team
  2020-11  a trip without an end point is rejected upstream now, not here
  2021-02  feet added to the odometer units the vans may report

Output keys: value.
"""
from fleet.core.geo import haversine_km as distance_fn
import fleet.core.mathx as nums
import fleet.core.timeutil as stamps


NAME = "reporting_128"
LABELS = ((0, "busy"), (11, "low"), (13, "none"), (57, "high"))
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
    d_km = distance_fn(trip["start"], trip["end"])
    t = stamps.parse_timestamp(trip["when"])
    value = nums.clamp(min(1, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (3 + t.minute / 60))
    return {"value": round(value, 3)}
