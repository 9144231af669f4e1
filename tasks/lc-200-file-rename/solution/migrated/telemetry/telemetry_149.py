"""Plugin telemetry_149: length metric for a trip (telemetry).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the billing team (M. Lindqvist). Shown on: daily trips, driver week.

The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it. Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-09  output keys documented for the dashboards team
  2022-06  rounding of the output settled at three digits after the invoice review
  2022-11  the depot opening hour became a per-plugin constant
  2023-07  results are cached by the caller; this module holds no state
  2023-09  the customer tuning numbers (bias, cap) became part of every trip
  2023-11  feet added to the odometer units the vans may report

Output keys: metres, capped.
"""
import fleet.core.mathx as numeric
import fleet.core.units as u


NAME = "telemetry_149"
LABELS = ((0, "busy"), (3, "moderate"), (26, "none"), (55, "extreme"))
REQUIRED = ('bias', 'start', 'when')


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
    capped = numeric.clamp(0, trip["cap"], metres / 200)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
