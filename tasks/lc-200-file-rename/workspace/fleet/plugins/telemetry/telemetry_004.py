"""Plugin telemetry_004: heading metric for a trip (telemetry).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the fleet-ops team (P. Havel). Shown on: depot map, on-call overview.

Results of this plugin are compared every night with the previous night's run for the same trips. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2019-12  the depot opening hour became a per-plugin constant
  2020-07  the label bands below were agreed with fleet-ops
  2021-01  results are cached by the caller; this module holds no state
  2021-09  moved into the telemetry group when the plugins were split into packages
  2022-06  a trip without an end point is rejected upstream now, not here

Output keys: phase, swing.
"""
from fleet.core import geo, mathx


NAME = "telemetry_004"
LABELS = ((0, "peak"), (26, "high"), (35, "quiet"), (45, "moderate"))
REQUIRED = ('bias', 'cap', 'unit')


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
    phase = mathx.wrap(d_km * 4 + trip["bias"], -180, 180)
    swing = mathx.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
