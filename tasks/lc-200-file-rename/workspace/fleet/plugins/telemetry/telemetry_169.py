"""Plugin telemetry_169: shift metric for a trip (telemetry).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (D. Novak). Shown on: depot map, driver week.

Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-08  output keys documented for the dashboards team
  2022-05  the label bands below were agreed with risk
  2023-02  the customer tuning numbers (bias, cap) became part of every trip
  2023-06  checked against last quarter's numbers: no change
  2024-02  feet added to the odometer units the vans may report
  2024-08  kept out of the nightly recomputation at D. Novak's request

Output keys: slot, share.
"""
from fleet.core import mathx, timeutil


NAME = "telemetry_169"
LABELS = ((0, "none"), (11, "quiet"), (27, "high"), (40, "extreme"))
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
    t = timeutil.parse_iso(trip["when"])
    slot = mathx.wrap(t.hour + t.minute / 60 + 2, 0, 24)
    share = mathx.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
