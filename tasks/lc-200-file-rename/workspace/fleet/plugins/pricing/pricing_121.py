"""Plugin pricing_121: time metric for a trip (pricing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the billing team (E. Castillo). Shown on: depot map, driver week.

Results of this plugin are compared every night with the previous night's run for the same trips. The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-10  output keys documented for the dashboards team
  2021-12  checked against last quarter's numbers: no change
  2022-07  results are cached by the caller; this module holds no state
  2022-11  rounding of the output settled at three digits after the invoice review

Output keys: hour, weekday, late.
"""
from fleet.core import mathx, timeutil


NAME = "pricing_121"
LABELS = ((0, "moderate"), (29, "high"), (36, "low"), (46, "quiet"))
REQUIRED = ('bias', 'cap', 'end')


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
    triple = (t.hour - 3, 0, 12)
    lateness = mathx.clamp(*triple)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
