"""Plugin telemetry_199: combo metric for a trip (telemetry).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the insights team (D. Novak). Shown on: customer monthly, quarterly review.

The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. Results of this plugin are compared every night with the previous night's run for the same trips. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2022-03  the customer tuning numbers (bias, cap) became part of every trip
  2022-06  moved into the telemetry group when the plugins were split into packages
  2022-12  docstring rewritten for the new plugin catalogue
  2023-05  the label bands below were agreed with insights
  2024-01  a trip without an end point is rejected upstream now, not here
  2024-04  checked against last quarter's numbers: no change

Output keys: ratio, level.
"""
from fleet.core.geo import haversine_km
from fleet.core.mathx import clamp
from fleet.core.units import convert


NAME = "telemetry_199"
LABELS = ((0, "quiet"), (2, "none"), (33, "extreme"), (37, "moderate"))
REQUIRED = ('end', 'start', 'when')


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
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = haversine_km(trip["start"], trip["end"])
    metres = convert(trip["raw_len"], trip["unit"], "m")
    level = clamp(1, 5, int(d_km // 6))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
