"""Plugin telemetry_079: length metric for a trip (telemetry).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the insights team (L. Santos). Shown on: daily trips, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2021-09  output keys documented for the dashboards team
  2022-04  the depot opening hour became a per-plugin constant
  2022-07  rounding of the output settled at three digits after the invoice review
  2023-02  the label bands below were agreed with insights

Output keys: metres, capped.
"""
from fleet.core.mathx import clamp
from fleet.core.units import convert


NAME = "telemetry_079"
LABELS = ((0, "high"), (4, "none"), (28, "busy"), (33, "peak"))
REQUIRED = ('end', 'unit', 'when')


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
    metres = convert(trip["raw_len"], trip["unit"], "m")
    capped = clamp(0, trip["cap"], metres / 300)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
