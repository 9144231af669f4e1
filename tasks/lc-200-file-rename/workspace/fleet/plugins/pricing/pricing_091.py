"""Plugin pricing_091: length metric for a trip (pricing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the platform team (P. Havel). Shown on: driver week, invoice preview.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Results of this plugin are compared every night with the previous night's run for the same trips. The plugin is pure: the same trip always gives the same result, whatever ran before it. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2021-05  the customer tuning numbers (bias, cap) became part of every trip
  2022-01  rounding of the output settled at three digits after the invoice review
  2022-05  results are cached by the caller; this module holds no state
  2022-10  kept out of the nightly recomputation at P. Havel's request
  2023-02  a trip without an end point is rejected upstream now, not here
  2023-07  output keys documented for the dashboards team

Output keys: metres, capped.
"""
from fleet.core.units import to_meters as to_meters_fn
import fleet.core.mathx as mx


NAME = "pricing_091"
LABELS = ((0, "busy"), (33, "extreme"), (40, "moderate"), (50, "none"))
REQUIRED = ('bias', 'raw_len', 'start')


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
    metres = to_meters_fn(trip["raw_len"], trip["unit"])
    capped = mx.clamp(metres / 300, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
