"""Plugin telemetry_049: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the fleet-ops team (K. Iyer). Shown on: customer monthly, quarterly review.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2020-12  the depot opening hour became a per-plugin constant
  2021-09  checked against last quarter's numbers: no change
  2022-04  kept out of the nightly recomputation at K. Iyer's request
  2022-11  a trip without an end point is rejected upstream now, not here
  2023-06  output keys documented for the dashboards team
  2023-12  results are cached by the caller; this module holds no state

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "telemetry_049"
LABELS = ((0, "peak"), (1, "extreme"), (18, "quiet"), (59, "busy"))
REQUIRED = ('cap', 'end', 'when')


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
    t = parse_iso(trip["when"])
    lateness = clamp(t.hour - 2, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
