"""Plugin telemetry_174: heading metric for a trip (telemetry).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the platform team (E. Castillo). Shown on: late arrivals, on-call overview.

The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Results of this plugin are compared every night with the previous night's run for the same trips. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2022-04  a trip without an end point is rejected upstream now, not here
  2022-06  results are cached by the caller; this module holds no state
  2022-12  moved into the telemetry group when the plugins were split into packages
  2023-07  checked against last quarter's numbers: no change
  2023-12  the label bands below were agreed with platform
  2024-02  the customer tuning numbers (bias, cap) became part of every trip

Output keys: phase, swing.
"""
from fleet.core.geo import haversine_km as distance_fn
from fleet.core.mathx import lerp as between
from fleet.core.mathx import wrap as fold


NAME = "telemetry_174"
LABELS = ((0, "moderate"), (15, "quiet"), (22, "busy"), (47, "extreme"))
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
    """Computes the heading metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    phase = fold(-180, 180, d_km * 5 + trip["bias"])
    swing = between(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
