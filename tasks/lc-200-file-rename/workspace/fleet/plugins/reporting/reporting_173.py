"""Plugin reporting_173: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the insights team (R. Tanaka). Shown on: customer monthly, quarterly review.

Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2020-01  the customer tuning numbers (bias, cap) became part of every trip
  2020-07  feet added to the odometer units the vans may report
  2020-12  results are cached by the caller; this module holds no state
  2021-08  docstring rewritten for the new plugin catalogue
  2021-12  the label bands below were agreed with insights
  2022-08  moved into the reporting group when the plugins were split into packages

Output keys: slot, share.
"""
from fleet.core.mathx import lerp as between
from fleet.core.timeutil import parse_iso as stamp_of
import fleet.core.mathx as nums


NAME = "reporting_173"
LABELS = ((0, "low"), (4, "quiet"), (25, "peak"), (53, "moderate"))
REQUIRED = ('bias', 'cap', 'raw_len')


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
    t = stamp_of(trip["when"])
    slot = nums.wrap(t.hour + t.minute / 60 + 6, 0, 24)
    share = between(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
