"""Plugin telemetry_084: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the dispatch team (K. Iyer). Shown on: customer monthly, driver week.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-06  a trip without an end point is rejected upstream now, not here
  2021-09  kept out of the nightly recomputation at K. Iyer's request
  2022-05  output keys documented for the dashboards team
  2022-10  feet added to the odometer units the vans may report

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "telemetry_084"
LABELS = ((0, "peak"), (39, "none"), (42, "busy"), (45, "high"))
REQUIRED = ('raw_len', 'unit', 'when')


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
    edges = {"lo": 0, "hi": 12}
    t = parse_iso(trip["when"])
    lateness = clamp(t.hour - 4, **edges)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
