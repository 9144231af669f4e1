"""Plugin pricing_086: combo metric for a trip (pricing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the billing team (M. Lindqvist). Shown on: late arrivals, quarterly review.

The bands in LABELS are for display only and do not change any number this module returns. The numbers are rounded only at the end, so that the dashboards and the invoices agree. Results of this plugin are compared every night with the previous night's run for the same trips. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-03  docstring rewritten for the new plugin catalogue
  2021-11  the label bands below were agreed with billing
  2022-08  the customer tuning numbers (bias, cap) became part of every trip
  2022-12  kept out of the nightly recomputation at M. Lindqvist's request
  2023-03  checked against last quarter's numbers: no change

Output keys: ratio, level.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.units import to_meters


NAME = "pricing_086"
LABELS = ((0, "peak"), (18, "moderate"), (25, "none"), (34, "low"))
REQUIRED = ('raw_len', 'start', 'unit')


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
    level = clamp(int(d_km // 2), 1, 5)
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
