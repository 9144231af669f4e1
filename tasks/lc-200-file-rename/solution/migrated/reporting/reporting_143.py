"""Plugin reporting_143: combo metric for a trip (reporting).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the customer success team (R. Tanaka). Shown on: customer monthly, late arrivals.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Trips recorded before the odometer units were added are converted upstream, not here. The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2021-07  kept out of the nightly recomputation at R. Tanaka's request
  2021-10  the customer tuning numbers (bias, cap) became part of every trip
  2022-05  results are cached by the caller; this module holds no state
  2022-08  output keys documented for the dashboards team
  2022-12  rounding of the output settled at three digits after the invoice review
  2023-05  the label bands below were agreed with customer success

Output keys: ratio, level.
"""
from fleet.core.geo import haversine_km as span_km
from fleet.core.mathx import clamp as pin
import fleet.core.units as u


NAME = "reporting_143"
LABELS = ((0, "high"), (23, "quiet"), (49, "busy"), (54, "peak"))
REQUIRED = ('end', 'raw_len', 'when')


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
    d_km = span_km(trip["start"], trip["end"])
    metres = u.convert(trip["raw_len"], trip["unit"], "m")
    level = pin(1, 5, int(d_km // 8))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
