"""Plugin pricing_016: length metric for a trip (pricing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the billing team (J. Moreau). Shown on: customer monthly, invoice preview.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2019-06  the depot opening hour became a per-plugin constant
  2019-08  results are cached by the caller; this module holds no state
  2020-02  moved into the pricing group when the plugins were split into packages
  2020-10  the label bands below were agreed with billing

Output keys: metres, capped.
"""
from fleet.core.units import to_meters as as_metres
import fleet.core.mathx as numeric


NAME = "pricing_016"
LABELS = ((0, "quiet"), (21, "extreme"), (23, "low"), (32, "moderate"))
REQUIRED = ('cap', 'end', 'raw_len')


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
    metres = as_metres(trip["raw_len"], trip["unit"])
    capped = numeric.clamp(metres / 800, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
