"""Plugin telemetry_099: combo metric for a trip (telemetry).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the billing team (L. Santos). Shown on: customer monthly, late arrivals.

Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The customer tuning numbers come from the contract database; a missing one is an upstream error. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2020-05  kept out of the nightly recomputation at L. Santos's request
  2021-02  moved into the telemetry group when the plugins were split into packages
  2021-08  the label bands below were agreed with billing
  2022-04  results are cached by the caller; this module holds no state
  2022-12  a trip without an end point is rejected upstream now, not here

Output keys: ratio, level.
"""
from fleet.core.units import convert as to_meters_fn
import fleet.core.geo as geom
import fleet.core.mathx as nums


NAME = "telemetry_099"
LABELS = ((0, "high"), (30, "none"), (41, "quiet"), (45, "moderate"))
REQUIRED = ('bias', 'end', 'raw_len')


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
    d_km = geom.haversine_km(trip["start"], trip["end"])
    metres = to_meters_fn(trip["raw_len"], trip["unit"], "m")
    level = nums.clamp(1, 5, int(d_km // 3))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
