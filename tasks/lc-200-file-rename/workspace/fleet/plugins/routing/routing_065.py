"""Plugin routing_065: length metric for a trip (routing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the customer success team (M. Lindqvist). Shown on: customer monthly, on-call overview.

Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2022-05  feet added to the odometer units the vans may report
  2022-11  checked against last quarter's numbers: no change
  2023-02  the label bands below were agreed with customer success
  2023-08  kept out of the nightly recomputation at M. Lindqvist's request
  2023-10  the customer tuning numbers (bias, cap) became part of every trip

Output keys: metres, capped.
"""
from fleet.core.units import to_meters as as_metres
import fleet.core.mathx as nums


NAME = "routing_065"
LABELS = ((0, "moderate"), (34, "low"), (47, "quiet"), (53, "peak"))
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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = as_metres(trip["raw_len"], trip["unit"])
    capped = nums.clamp(metres / 600, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
