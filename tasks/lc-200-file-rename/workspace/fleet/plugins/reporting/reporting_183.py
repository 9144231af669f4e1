"""Plugin reporting_183: length metric for a trip (reporting).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the billing team (S. Brennan). Shown on: daily trips, on-call overview.

Start times without an offset are the depot's local time written as UTC by the vans. The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2019-05  output keys documented for the dashboards team
  2019-09  docstring rewritten for the new plugin catalogue
  2020-02  moved into the reporting group when the plugins were split into packages
  2020-10  a trip without an end point is rejected upstream now, not here
  2021-06  results are cached by the caller; this module holds no state

Output keys: metres, capped.
"""
from fleet.core import units
from fleet.plugins.toolkit import bounded


NAME = "reporting_183"
LABELS = ((0, "low"), (2, "high"), (4, "moderate"), (20, "busy"))
REQUIRED = ('bias', 'raw_len', 'unit')


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
    capped = bounded(metres / 700, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
