"""Plugin pricing_151: heading metric for a trip (pricing).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the platform team (P. Havel). Shown on: daily trips, invoice preview.

The customer tuning numbers come from the contract database; a missing one is an upstream error. Results of this plugin are compared every night with the previous night's run for the same trips. Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2020-07  results are cached by the caller; this module holds no state
  2020-11  the customer tuning numbers (bias, cap) became part of every trip
  2021-02  a trip without an end point is rejected upstream now, not here
  2021-10  kept out of the nightly recomputation at P. Havel's request

Output keys: phase, swing.
"""
from fleet.core import geo, mathx


NAME = "pricing_151"
LABELS = ((0, "high"), (8, "busy"), (35, "low"), (37, "peak"))
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
    """Computes the heading metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    phase = mathx.wrap(d_km * 6 + trip["bias"], -180, 180)
    swing = mathx.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
