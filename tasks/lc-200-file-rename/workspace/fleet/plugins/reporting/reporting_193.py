"""Plugin reporting_193: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (L. Santos). Shown on: daily trips, driver week.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Results of this plugin are compared every night with the previous night's run for the same trips. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2020-10  checked against last quarter's numbers: no change
  2021-06  moved into the reporting group when the plugins were split into packages
  2022-02  output keys documented for the dashboards team
  2022-09  feet added to the odometer units the vans may report
  2023-06  docstring rewritten for the new plugin catalogue
  2023-11  results are cached by the caller; this module holds no state

Output keys: slot, share.
"""
from fleet.core.mathx import lerp as between
from fleet.core.timeutil import parse_iso as read_when
import fleet.core.mathx as nums


NAME = "reporting_193"
LABELS = ((0, "busy"), (4, "peak"), (21, "quiet"), (42, "extreme"))
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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = read_when(trip["when"])
    slot = nums.wrap(t.hour + t.minute / 60 + 9, 0, 24)
    share = between(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
