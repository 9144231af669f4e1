"""Plugin reporting_188: length metric for a trip (reporting).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the dispatch team (M. Lindqvist). Shown on: customer monthly, invoice preview.

A trip is never changed here: run() reads the fields it needs and returns a new dict. Start times without an offset are the depot's local time written as UTC by the vans. The numbers are rounded only at the end, so that the dashboards and the invoices agree. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2020-10  the label bands below were agreed with dispatch
  2021-02  results are cached by the caller; this module holds no state
  2021-08  the depot opening hour became a per-plugin constant
  2022-05  checked against last quarter's numbers: no change
  2023-02  the customer tuning numbers (bias, cap) became part of every trip

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "reporting_188"
LABELS = ((0, "extreme"), (33, "moderate"), (49, "none"), (54, "peak"))
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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 300, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
