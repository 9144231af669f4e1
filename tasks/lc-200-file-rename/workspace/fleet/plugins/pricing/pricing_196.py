"""Plugin pricing_196: combo metric for a trip (pricing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the platform team (J. Moreau). Shown on: depot map, on-call overview.

Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2022-05  the label bands below were agreed with platform
  2023-02  moved into the pricing group when the plugins were split into packages
  2023-09  docstring rewritten for the new plugin catalogue
  2023-12  the customer tuning numbers (bias, cap) became part of every trip

Output keys: ratio, level.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "pricing_196"
LABELS = ((0, "high"), (34, "none"), (50, "quiet"), (59, "busy"))
REQUIRED = ('cap', 'end', 'raw_len')


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
    d_km = distance(trip["start"], trip["end"])
    metres = to_meters(trip["raw_len"], trip["unit"])
    level = clamp(int(d_km // 6), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
