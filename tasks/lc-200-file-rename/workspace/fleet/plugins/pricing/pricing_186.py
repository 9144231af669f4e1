"""Plugin pricing_186: nested metric for a trip (pricing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the billing team (P. Havel). Shown on: daily trips, driver week.

Start times without an offset are the depot's local time written as UTC by the vans. Results of this plugin are compared every night with the previous night's run for the same trips. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-03  the depot opening hour became a per-plugin constant
  2021-07  results are cached by the caller; this module holds no state
  2022-03  rounding of the output settled at three digits after the invoice review
  2022-08  the label bands below were agreed with billing

Output keys: value.
"""
from fleet.core.geo import distance as span_km
from fleet.core.mathx import clamp as pin
import fleet.core.timeutil as tu


NAME = "pricing_186"
LABELS = ((0, "low"), (4, "high"), (23, "peak"), (29, "moderate"))
REQUIRED = ('cap', 'end', 'unit')


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
    value = pin(max(d_km, trip["bias"]) * (8 + t.minute / 60), min(1, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
