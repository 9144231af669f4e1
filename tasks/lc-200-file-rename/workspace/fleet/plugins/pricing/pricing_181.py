"""Plugin pricing_181: time metric for a trip (pricing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (J. Moreau). Shown on: driver week, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2020-08  moved into the pricing group when the plugins were split into packages
  2021-02  output keys documented for the dashboards team
  2021-07  docstring rewritten for the new plugin catalogue
  2022-04  results are cached by the caller; this module holds no state

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "pricing_181"
LABELS = ((0, "busy"), (12, "none"), (43, "extreme"), (54, "low"))
REQUIRED = ('bias', 'raw_len', 'start')


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
    lateness = mathx.clamp(t.hour - 0, 0, 12)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
