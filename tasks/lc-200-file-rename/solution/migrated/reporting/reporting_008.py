"""Plugin reporting_008: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the insights team (A. Okafor). Shown on: invoice preview, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2021-06  output keys documented for the dashboards team
  2021-11  the label bands below were agreed with insights
  2022-03  docstring rewritten for the new plugin catalogue
  2022-10  rounding of the output settled at three digits after the invoice review
  2023-02  checked against last quarter's numbers: no change
  2023-08  a trip without an end point is rejected upstream now, not here

Output keys: slot, share.
"""
from fleet.core.mathx import lerp as mix
from fleet.core.timeutil import parse_timestamp as parse_iso_fn
import fleet.core.mathx as nums


NAME = "reporting_008"
LABELS = ((0, "quiet"), (10, "low"), (40, "extreme"), (57, "moderate"))
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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = parse_iso_fn(trip["when"])
    slot = nums.wrap(0, 24, t.hour + t.minute / 60 + 3)
    share = mix(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
