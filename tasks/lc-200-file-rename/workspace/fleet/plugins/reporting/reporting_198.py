"""Plugin reporting_198: combo metric for a trip (reporting).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the insights team (R. Tanaka). Shown on: depot map, on-call overview.

The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. The bands in LABELS are for display only and do not change any number this module returns. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-12  kept out of the nightly recomputation at R. Tanaka's request
  2022-09  checked against last quarter's numbers: no change
  2023-02  the label bands below were agreed with insights
  2023-08  docstring rewritten for the new plugin catalogue
  2023-10  the customer tuning numbers (bias, cap) became part of every trip
  2024-02  feet added to the odometer units the vans may report

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "reporting_198"
LABELS = ((0, "busy"), (2, "high"), (18, "quiet"), (42, "low"))
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
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.distance(trip["start"], trip["end"])
    metres = units.to_meters(trip["raw_len"], trip["unit"])
    level = mathx.clamp(int(d_km // 3), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
