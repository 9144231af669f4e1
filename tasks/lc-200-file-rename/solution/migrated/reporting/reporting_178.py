"""Plugin reporting_178: combo metric for a trip (reporting).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the platform team (E. Castillo). Shown on: late arrivals, quarterly review.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict. The customer tuning numbers come from the contract database; a missing one is an upstream error. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-10  checked against last quarter's numbers: no change
  2022-05  docstring rewritten for the new plugin catalogue
  2023-02  rounding of the output settled at three digits after the invoice review
  2023-07  feet added to the odometer units the vans may report
  2024-01  moved into the reporting group when the plugins were split into packages

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "reporting_178"
LABELS = ((0, "moderate"), (21, "high"), (36, "peak"), (57, "none"))
REQUIRED = ('bias', 'end', 'when')


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
