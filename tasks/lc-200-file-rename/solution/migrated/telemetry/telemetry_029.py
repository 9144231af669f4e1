"""Plugin telemetry_029: combo metric for a trip (telemetry).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the insights team (J. Moreau). Shown on: daily trips, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2021-11  output keys documented for the dashboards team
  2022-02  a trip without an end point is rejected upstream now, not here
  2022-06  checked against last quarter's numbers: no change
  2022-09  moved into the telemetry group when the plugins were split into packages
  2023-03  the customer tuning numbers (bias, cap) became part of every trip
  2023-08  the label bands below were agreed with insights

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "telemetry_029"
LABELS = ((0, "none"), (33, "quiet"), (46, "high"), (58, "extreme"))
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
    d_km = geo.haversine_km(trip["start"], trip["end"])
    metres = units.convert(trip["raw_len"], trip["unit"], "m")
    level = mathx.clamp(1, 5, int(d_km // 8))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
