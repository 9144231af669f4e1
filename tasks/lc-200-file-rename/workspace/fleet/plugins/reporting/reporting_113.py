"""Plugin reporting_113: length metric for a trip (reporting).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the insights team (P. Havel). Shown on: depot map, late arrivals.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The customer tuning numbers come from the contract database; a missing one is an upstream error. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2019-11  docstring rewritten for the new plugin catalogue
  2020-07  the depot opening hour became a per-plugin constant
  2020-12  kept out of the nightly recomputation at P. Havel's request
  2021-08  output keys documented for the dashboards team

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "reporting_113"
LABELS = ((0, "high"), (3, "none"), (24, "extreme"), (47, "busy"))
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
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
