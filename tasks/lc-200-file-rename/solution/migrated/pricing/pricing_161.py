"""Plugin pricing_161: time metric for a trip (pricing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (R. Tanaka). Shown on: driver week, invoice preview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-05  the label bands below were agreed with customer success
  2020-09  rounding of the output settled at three digits after the invoice review
  2020-11  results are cached by the caller; this module holds no state
  2021-06  kept out of the nightly recomputation at R. Tanaka's request

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "pricing_161"
LABELS = ((0, "extreme"), (38, "high"), (40, "quiet"), (53, "peak"))
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
    """Computes the time metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = parse_timestamp(trip["when"])
    lateness = clamp(0, 12, t.hour - 1)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
