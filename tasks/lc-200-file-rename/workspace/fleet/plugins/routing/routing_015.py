"""Plugin routing_015: length metric for a trip (routing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the fleet-ops team (A. Okafor). Shown on: customer monthly, late arrivals.

The bands in LABELS are for display only and do not change any number this module returns. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2021-11  checked against last quarter's numbers: no change
  2022-08  a trip without an end point is rejected upstream now, not here
  2023-02  the label bands below were agreed with fleet-ops
  2023-10  feet added to the odometer units the vans may report
  2024-01  output keys documented for the dashboards team

Output keys: metres, capped.
"""
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "routing_015"
LABELS = ((0, "extreme"), (9, "none"), (21, "busy"), (46, "high"))
REQUIRED = ('bias', 'raw_len', 'when')


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
    metres = to_meters(trip["raw_len"], trip["unit"])
    capped = clamp(metres / 600, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
