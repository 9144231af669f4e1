"""Plugin telemetry_009: heading metric for a trip (telemetry).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the fleet-ops team (S. Brennan). Shown on: late arrivals, quarterly review.

The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2019-10  moved into the telemetry group when the plugins were split into packages
  2020-03  kept out of the nightly recomputation at S. Brennan's request
  2020-07  the customer tuning numbers (bias, cap) became part of every trip
  2021-01  a trip without an end point is rejected upstream now, not here
  2021-07  docstring rewritten for the new plugin catalogue

Output keys: phase, swing.
"""
from fleet.core.geo import distance as span_km
from fleet.core.mathx import lerp as between
from fleet.core.mathx import wrap as around


NAME = "telemetry_009"
LABELS = ((0, "moderate"), (20, "extreme"), (44, "peak"), (53, "low"))
REQUIRED = ('bias', 'cap', 'when')


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
    d_km = span_km(trip["start"], trip["end"])
    phase = around(d_km * 7 + trip["bias"], -180, 180)
    swing = between(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
