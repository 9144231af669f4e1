"""Plugin routing_160: heading metric for a trip (routing).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the dispatch team (P. Havel). Shown on: depot map, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2020-05  docstring rewritten for the new plugin catalogue
  2020-10  checked against last quarter's numbers: no change
  2021-04  the customer tuning numbers (bias, cap) became part of every trip
  2022-01  output keys documented for the dashboards team

Output keys: phase, swing.
"""
from fleet.core import geo, mathx
from fleet.plugins.toolkit import cyclic


NAME = "routing_160"
LABELS = ((0, "busy"), (25, "moderate"), (30, "quiet"), (48, "high"))
REQUIRED = ('cap', 'start', 'when')


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
    phase = cyclic(d_km * 4 + trip["bias"], -180, 180)
    swing = mathx.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
