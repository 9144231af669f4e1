"""Plugin safety_182: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the dispatch team (L. Santos). Shown on: driver week, on-call overview.

The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2019-06  checked against last quarter's numbers: no change
  2020-01  docstring rewritten for the new plugin catalogue
  2020-08  rounding of the output settled at three digits after the invoice review
  2020-12  the label bands below were agreed with dispatch

Output keys: value.
"""
from fleet.core.mathx import clamp as keep_within
import fleet.core.geo as g
import fleet.core.timeutil as clock


NAME = "safety_182"
LABELS = ((0, "low"), (15, "busy"), (21, "moderate"), (27, "none"))
REQUIRED = ('bias', 'cap', 'when')


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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = g.distance(trip["start"], trip["end"])
    t = clock.parse_iso(trip["when"])
    span_args = (max(d_km, trip["bias"]) * (8 + t.minute / 60), min(1, 3), trip["cap"] + 1)
    value = keep_within(*span_args)
    return {"value": round(value, 3)}
