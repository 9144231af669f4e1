"""Plugin telemetry_094: length metric for a trip (telemetry).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the billing team (D. Novak). Shown on: daily trips, on-call overview.

The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2020-05  rounding of the output settled at three digits after the invoice review
  2021-01  results are cached by the caller; this module holds no state
  2021-03  docstring rewritten for the new plugin catalogue
  2021-06  feet added to the odometer units the vans may report
  2022-03  the depot opening hour became a per-plugin constant

Output keys: metres, capped.
"""
from fleet.core.mathx import clamp as limit
from fleet.core.units import convert as to_meters_fn


NAME = "telemetry_094"
LABELS = ((0, "quiet"), (29, "moderate"), (30, "low"), (54, "peak"))
REQUIRED = ('bias', 'cap', 'unit')


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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = to_meters_fn(trip["raw_len"], trip["unit"], "m")
    capped = limit(0, trip["cap"], metres / 600)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
