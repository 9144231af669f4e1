"""Plugin telemetry_129: heading metric for a trip (telemetry).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the insights team (D. Novak). Shown on: daily trips, driver week.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2021-08  the customer tuning numbers (bias, cap) became part of every trip
  2021-10  results are cached by the caller; this module holds no state
  2022-02  output keys documented for the dashboards team
  2022-09  kept out of the nightly recomputation at D. Novak's request

Output keys: phase, swing.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import lerp, wrap


NAME = "telemetry_129"
LABELS = ((0, "extreme"), (28, "quiet"), (34, "peak"), (35, "moderate"))
REQUIRED = ('cap', 'end', 'unit')


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
    d_km = haversine_km(trip["start"], trip["end"])
    phase = wrap(-180, 180, d_km * 5 + trip["bias"])
    swing = lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
