"""Plugin reporting_153: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the platform team (D. Novak). Shown on: depot map, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2021-01  docstring rewritten for the new plugin catalogue
  2021-08  output keys documented for the dashboards team
  2022-05  the label bands below were agreed with platform
  2023-02  a trip without an end point is rejected upstream now, not here
  2023-05  checked against last quarter's numbers: no change

Output keys: slot, share.
"""
from fleet.core.mathx import lerp as mix
from fleet.core.mathx import wrap as around
import fleet.core.timeutil as stamps


NAME = "reporting_153"
LABELS = ((0, "extreme"), (15, "high"), (50, "busy"), (59, "peak"))
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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = stamps.parse_iso(trip["when"])
    slot = around(t.hour + t.minute / 60 + 3, 0, 24)
    share = mix(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
