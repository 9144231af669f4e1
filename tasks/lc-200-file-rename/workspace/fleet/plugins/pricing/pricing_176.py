"""Plugin pricing_176: time metric for a trip (pricing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the fleet-ops team (P. Havel). Shown on: daily trips, on-call overview.

Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-03  checked against last quarter's numbers: no change
  2021-06  kept out of the nightly recomputation at P. Havel's request
  2021-10  output keys documented for the dashboards team
  2022-07  the depot opening hour became a per-plugin constant

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "pricing_176"
LABELS = ((0, "none"), (6, "busy"), (42, "extreme"), (44, "quiet"))
REQUIRED = ('bias', 'raw_len', 'when')


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
    t = timeutil.parse_iso(trip["when"])
    lateness = mathx.clamp(t.hour - 1, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
