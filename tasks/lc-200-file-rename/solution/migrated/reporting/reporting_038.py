"""Plugin reporting_038: length metric for a trip (reporting).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the customer success team (R. Tanaka). Shown on: customer monthly, on-call overview.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The plugin is pure: the same trip always gives the same result, whatever ran before it. The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2021-02  moved into the reporting group when the plugins were split into packages
  2021-10  rounding of the output settled at three digits after the invoice review
  2022-03  checked against last quarter's numbers: no change
  2022-09  feet added to the odometer units the vans may report

Output keys: metres, capped.
"""
from fleet.core.mathx import clamp as pin
import fleet.core.units as u


NAME = "reporting_038"
LABELS = ((0, "high"), (32, "busy"), (55, "peak"), (58, "extreme"))
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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = u.convert(trip["raw_len"], trip["unit"], "m")
    capped = pin(0, trip["cap"], metres / 900)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
