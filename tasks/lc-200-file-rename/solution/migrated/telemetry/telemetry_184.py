"""Plugin telemetry_184: combo metric for a trip (telemetry).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the customer success team (M. Lindqvist). Shown on: daily trips, late arrivals.

The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-05  the label bands below were agreed with customer success
  2021-02  kept out of the nightly recomputation at M. Lindqvist's request
  2021-05  moved into the telemetry group when the plugins were split into packages
  2022-01  output keys documented for the dashboards team
  2022-06  the depot opening hour became a per-plugin constant
  2022-10  the customer tuning numbers (bias, cap) became part of every trip

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "telemetry_184"
LABELS = ((0, "none"), (11, "extreme"), (22, "quiet"), (55, "peak"))
REQUIRED = ('cap', 'unit', 'when')


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
    level = mathx.clamp(1, 5, int(d_km // 5))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
