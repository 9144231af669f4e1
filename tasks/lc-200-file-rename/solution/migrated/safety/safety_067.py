"""Plugin safety_067: length metric for a trip (safety).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the customer success team (R. Tanaka). Shown on: customer monthly, on-call overview.

The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips. A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2020-11  a trip without an end point is rejected upstream now, not here
  2021-08  rounding of the output settled at three digits after the invoice review
  2022-01  the label bands below were agreed with customer success
  2022-06  the depot opening hour became a per-plugin constant

Output keys: metres, capped.
"""
from fleet.core.mathx import clamp
from fleet.core.units import convert


NAME = "safety_067"
LABELS = ((0, "moderate"), (11, "low"), (23, "extreme"), (27, "quiet"))
REQUIRED = ('end', 'raw_len', 'start')


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
    capped = clamp(0, trip["cap"], metres / 800)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
