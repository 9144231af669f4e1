"""Plugin telemetry_069: length metric for a trip (telemetry).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the risk team (A. Okafor). Shown on: depot map, late arrivals.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2022-05  feet added to the odometer units the vans may report
  2022-12  docstring rewritten for the new plugin catalogue
  2023-07  moved into the telemetry group when the plugins were split into packages
  2024-02  a trip without an end point is rejected upstream now, not here

Output keys: metres, capped.
"""
from fleet.core.units import to_meters as as_metres
import fleet.core.mathx as numeric


NAME = "telemetry_069"
LABELS = ((0, "moderate"), (4, "high"), (15, "none"), (22, "extreme"))
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
    metres = as_metres(trip["raw_len"], trip["unit"])
    capped = numeric.clamp(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
