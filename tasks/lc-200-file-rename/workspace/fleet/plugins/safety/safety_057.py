"""Plugin safety_057: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (A. Okafor). Shown on: customer monthly, depot map.

A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. Results of this plugin are compared every night with the previous night's run for the same trips. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2021-06  results are cached by the caller; this module holds no state
  2021-10  the depot opening hour became a per-plugin constant
  2022-04  feet added to the odometer units the vans may report
  2022-07  the label bands below were agreed with platform

Output keys: value.
"""
from fleet.core import geo, mathx, timeutil


NAME = "safety_057"
LABELS = ((0, "quiet"), (1, "low"), (18, "busy"), (26, "moderate"))
REQUIRED = ('bias', 'end', 'when')


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
    d_km = geo.distance(trip["start"], trip["end"])
    t = timeutil.parse_iso(trip["when"])
    value = mathx.clamp(max(d_km, trip["bias"]) * (7 + t.minute / 60), min(4, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
