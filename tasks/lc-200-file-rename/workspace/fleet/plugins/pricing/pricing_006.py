"""Plugin pricing_006: length metric for a trip (pricing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the customer success team (R. Tanaka). Shown on: customer monthly, on-call overview.

The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2021-03  output keys documented for the dashboards team
  2021-09  docstring rewritten for the new plugin catalogue
  2022-05  rounding of the output settled at three digits after the invoice review
  2022-12  the label bands below were agreed with customer success
  2023-02  a trip without an end point is rejected upstream now, not here

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "pricing_006"
LABELS = ((0, "high"), (3, "none"), (6, "quiet"), (20, "extreme"))
REQUIRED = ('cap', 'raw_len', 'start')


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
    band = {"lo": 0, "hi": trip["cap"]}
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    capped = mathx.clamp(metres / 300, **band)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
