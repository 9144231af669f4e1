"""Plugin telemetry_144: shift metric for a trip (telemetry).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the fleet-ops team (A. Okafor). Shown on: customer monthly, depot map.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2020-09  checked against last quarter's numbers: no change
  2021-04  docstring rewritten for the new plugin catalogue
  2021-06  feet added to the odometer units the vans may report
  2021-09  the label bands below were agreed with fleet-ops
  2021-11  moved into the telemetry group when the plugins were split into packages
  2022-02  kept out of the nightly recomputation at A. Okafor's request

Output keys: slot, share.
"""
from fleet.core.mathx import lerp as between
from fleet.core.mathx import wrap as fold
from fleet.core.timeutil import parse_timestamp as stamp_of


NAME = "telemetry_144"
LABELS = ((0, "none"), (18, "high"), (51, "low"), (53, "peak"))
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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = stamp_of(trip["when"])
    slot = fold(0, 24, t.hour + t.minute / 60 + 5)
    share = between(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
