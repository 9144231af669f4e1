"""Plugin pricing_171: length metric for a trip (pricing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the billing team (M. Lindqvist). Shown on: daily trips, depot map.

Results of this plugin are compared every night with the previous night's run for the same trips. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2020-01  feet added to the odometer units the vans may report
  2020-09  the label bands below were agreed with billing
  2020-11  results are cached by the caller; this module holds no state
  2021-05  output keys documented for the dashboards team
  2022-02  docstring rewritten for the new plugin catalogue
  2022-04  rounding of the output settled at three digits after the invoice review

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "pricing_171"
LABELS = ((0, "low"), (27, "extreme"), (31, "high"), (54, "moderate"))
REQUIRED = ('cap', 'end', 'unit')


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
