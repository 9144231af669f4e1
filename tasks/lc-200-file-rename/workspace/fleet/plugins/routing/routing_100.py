"""Plugin routing_100: nested metric for a trip (routing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the fleet-ops team (P. Havel). Shown on: customer monthly, invoice preview.

The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2019-03  the label bands below were agreed with fleet-ops
  2019-06  the customer tuning numbers (bias, cap) became part of every trip
  2020-03  the depot opening hour became a per-plugin constant
  2020-08  feet added to the odometer units the vans may report
  2020-12  moved into the routing group when the plugins were split into packages

Output keys: value.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "routing_100"
LABELS = ((0, "low"), (20, "peak"), (24, "high"), (38, "extreme"))
REQUIRED = ('bias', 'end', 'raw_len')


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
    value = clamp(max(d_km, trip["bias"]) * (2 + t.minute / 60), min(1, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
