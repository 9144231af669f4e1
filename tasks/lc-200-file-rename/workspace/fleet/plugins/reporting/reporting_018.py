"""Plugin reporting_018: combo metric for a trip (reporting).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the dispatch team (K. Iyer). Shown on: daily trips, driver week.

The bands in LABELS are for display only and do not change any number this module returns. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2021-10  moved into the reporting group when the plugins were split into packages
  2022-04  kept out of the nightly recomputation at K. Iyer's request
  2022-11  the customer tuning numbers (bias, cap) became part of every trip
  2023-07  the label bands below were agreed with dispatch
  2024-04  docstring rewritten for the new plugin catalogue
  2024-11  results are cached by the caller; this module holds no state

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "reporting_018"
LABELS = ((0, "peak"), (23, "moderate"), (27, "busy"), (50, "quiet"))
REQUIRED = ('bias', 'cap', 'raw_len')


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
    level = mathx.clamp(int(d_km // 2), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
