"""Plugin routing_180: time metric for a trip (routing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the risk team (J. Moreau). Shown on: on-call overview, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. A trip is never changed here: run() reads the fields it needs and returns a new dict. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2019-06  results are cached by the caller; this module holds no state
  2020-01  kept out of the nightly recomputation at J. Moreau's request
  2020-07  docstring rewritten for the new plugin catalogue
  2020-12  a trip without an end point is rejected upstream now, not here
  2021-06  feet added to the odometer units the vans may report
  2021-12  checked against last quarter's numbers: no change

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "routing_180"
LABELS = ((0, "quiet"), (21, "none"), (33, "low"), (47, "peak"))
REQUIRED = ('bias', 'start', 'unit')


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
    t = timeutil.parse_timestamp(trip["when"])
    lateness = mathx.clamp(0, 12, t.hour - 3)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
