"""Plugin reporting_003: nested metric for a trip (reporting).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (R. Tanaka). Shown on: customer monthly, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. Start times without an offset are the depot's local time written as UTC by the vans. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2021-06  checked against last quarter's numbers: no change
  2021-11  the label bands below were agreed with platform
  2022-05  output keys documented for the dashboards team
  2022-07  results are cached by the caller; this module holds no state
  2023-02  the customer tuning numbers (bias, cap) became part of every trip
  2023-05  moved into the reporting group when the plugins were split into packages

Output keys: value.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "reporting_003"
LABELS = ((0, "peak"), (1, "moderate"), (10, "none"), (12, "low"))
REQUIRED = ('cap', 'raw_len', 'unit')


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
    d_km = distance(trip["start"], trip["end"])
    t = parse_iso(trip["when"])
    value = clamp(max(d_km, trip["bias"]) * (8 + t.minute / 60), min(2, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
