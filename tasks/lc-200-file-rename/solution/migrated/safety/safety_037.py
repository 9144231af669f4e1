"""Plugin safety_037: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the customer success team (M. Lindqvist). Shown on: customer monthly, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-11  checked against last quarter's numbers: no change
  2022-01  moved into the safety group when the plugins were split into packages
  2022-06  output keys documented for the dashboards team
  2023-01  the customer tuning numbers (bias, cap) became part of every trip
  2023-08  feet added to the odometer units the vans may report

Output keys: value.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "safety_037"
LABELS = ((0, "quiet"), (13, "high"), (35, "low"), (55, "moderate"))
REQUIRED = ('start', 'unit', 'when')


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
