"""Plugin safety_172: heading metric for a trip (safety).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the fleet-ops team (R. Tanaka). Shown on: driver week, on-call overview.

Results of this plugin are compared every night with the previous night's run for the same trips. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. A trip is never changed here: run() reads the fields it needs and returns a new dict. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2021-12  the depot opening hour became a per-plugin constant
  2022-06  results are cached by the caller; this module holds no state
  2022-11  docstring rewritten for the new plugin catalogue
  2023-03  the customer tuning numbers (bias, cap) became part of every trip
  2023-09  output keys documented for the dashboards team
  2024-02  moved into the safety group when the plugins were split into packages

Output keys: phase, swing.
"""
import fleet.core.geo as geom
import fleet.core.mathx as mx


NAME = "safety_172"
LABELS = ((0, "none"), (45, "busy"), (51, "moderate"), (52, "high"))
REQUIRED = ('cap', 'start', 'unit')


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
    d_km = geom.distance(trip["start"], trip["end"])
    phase = mx.wrap(d_km * 4 + trip["bias"], -180, 180)
    swing = mx.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
