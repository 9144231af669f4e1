"""Plugin telemetry_194: heading metric for a trip (telemetry).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the dispatch team (E. Castillo). Shown on: invoice preview, on-call overview.

Trips recorded before the odometer units were added are converted upstream, not here. Start times without an offset are the depot's local time written as UTC by the vans. Results of this plugin are compared every night with the previous night's run for the same trips. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2020-11  docstring rewritten for the new plugin catalogue
  2021-02  moved into the telemetry group when the plugins were split into packages
  2021-09  results are cached by the caller; this module holds no state
  2021-12  rounding of the output settled at three digits after the invoice review
  2022-09  feet added to the odometer units the vans may report
  2023-04  a trip without an end point is rejected upstream now, not here

Output keys: phase, swing.
"""
from fleet.core.geo import haversine_km as gc_km
from fleet.core.mathx import lerp as mix
import fleet.core.mathx as nums


NAME = "telemetry_194"
LABELS = ((0, "none"), (6, "extreme"), (17, "low"), (25, "quiet"))
REQUIRED = ('bias', 'cap', 'end')


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
    d_km = gc_km(trip["start"], trip["end"])
    phase = nums.wrap(-180, 180, d_km * 8 + trip["bias"])
    swing = mix(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
