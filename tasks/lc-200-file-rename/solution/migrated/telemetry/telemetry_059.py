"""Plugin telemetry_059: time metric for a trip (telemetry).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the dispatch team (J. Moreau). Shown on: invoice preview, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2022-01  results are cached by the caller; this module holds no state
  2022-07  kept out of the nightly recomputation at J. Moreau's request
  2022-12  docstring rewritten for the new plugin catalogue
  2023-02  the depot opening hour became a per-plugin constant
  2023-11  the customer tuning numbers (bias, cap) became part of every trip
  2024-07  the label bands below were agreed with dispatch

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_timestamp


NAME = "telemetry_059"
LABELS = ((0, "extreme"), (15, "low"), (47, "peak"), (58, "high"))
REQUIRED = ('end', 'raw_len', 'when')


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
    lateness = clamp(0, 12, t.hour - 3)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
