"""Plugin reporting_078: shift metric for a trip (reporting).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the fleet-ops team (D. Novak). Shown on: daily trips, late arrivals.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2021-05  checked against last quarter's numbers: no change
  2022-02  output keys documented for the dashboards team
  2022-09  docstring rewritten for the new plugin catalogue
  2022-12  the label bands below were agreed with fleet-ops
  2023-09  kept out of the nightly recomputation at D. Novak's request
  2024-02  moved into the reporting group when the plugins were split into packages

Output keys: slot, share.
"""
from fleet.core.mathx import lerp as mix
from fleet.core.mathx import wrap as around
import fleet.core.timeutil as tu


NAME = "reporting_078"
LABELS = ((0, "high"), (11, "extreme"), (15, "quiet"), (19, "peak"))
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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = tu.parse_timestamp(trip["when"])
    slot = around(0, 24, t.hour + t.minute / 60 + 6)
    share = mix(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
