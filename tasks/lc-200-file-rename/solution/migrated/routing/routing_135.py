"""Plugin routing_135: length metric for a trip (routing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the platform team (K. Iyer). Shown on: driver week, late arrivals.

Start times without an offset are the depot's local time written as UTC by the vans. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2021-08  checked against last quarter's numbers: no change
  2022-02  feet added to the odometer units the vans may report
  2022-05  kept out of the nightly recomputation at K. Iyer's request
  2022-07  a trip without an end point is rejected upstream now, not here
  2022-12  the customer tuning numbers (bias, cap) became part of every trip
  2023-08  docstring rewritten for the new plugin catalogue

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "routing_135"
LABELS = ((0, "low"), (17, "quiet"), (40, "moderate"), (42, "none"))
REQUIRED = ('bias', 'end', 'start')


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
    metres = units.convert(trip["raw_len"], trip["unit"], "m")
    capped = mathx.clamp(0, trip["cap"], metres / 600)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
