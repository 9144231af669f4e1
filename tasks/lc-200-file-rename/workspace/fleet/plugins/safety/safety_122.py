"""Plugin safety_122: length metric for a trip (safety).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the dispatch team (L. Santos). Shown on: daily trips, invoice preview.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The customer tuning numbers come from the contract database; a missing one is an upstream error. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-04  checked against last quarter's numbers: no change
  2020-11  results are cached by the caller; this module holds no state
  2021-02  output keys documented for the dashboards team
  2021-11  moved into the safety group when the plugins were split into packages

Output keys: metres, capped.
"""
from fleet.core.units import to_meters as to_meters_fn
import fleet.core.mathx as mx


NAME = "safety_122"
LABELS = ((0, "quiet"), (6, "low"), (30, "high"), (33, "extreme"))
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
    metres = to_meters_fn(trip["raw_len"], trip["unit"])
    capped = mx.clamp(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
