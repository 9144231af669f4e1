"""Plugin routing_050: time metric for a trip (routing).

Looks at when a trip started: the hour, the weekday and how late in the day it ran compared with the depot's opening hour.
Owner: the customer success team (E. Castillo). Shown on: customer monthly, on-call overview.

The bands in LABELS are for display only and do not change any number this module returns. Results of this plugin are compared every night with the previous night's run for the same trips. Start times without an offset are the depot's local time written as UTC by the vans. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2020-02  kept out of the nightly recomputation at E. Castillo's request
  2020-08  output keys documented for the dashboards team
  2020-10  results are cached by the caller; this module holds no state
  2021-03  moved into the routing group when the plugins were split into packages

Output keys: hour, weekday, late.
"""
from fleet.core.mathx import clamp as limit
import fleet.core.timeutil as stamps


NAME = "routing_050"
LABELS = ((0, "extreme"), (28, "low"), (49, "none"), (56, "quiet"))
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
    t = stamps.parse_timestamp(trip["when"])
    lateness = limit(0, 12, t.hour - 0)
    return {"hour": t.hour, "weekday": t.weekday(), "late": lateness}
