"""Plugin routing_125: combo metric for a trip (routing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the insights team (A. Okafor). Shown on: customer monthly, driver week.

If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error. A trip is never changed here: run() reads the fields it needs and returns a new dict. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-12  feet added to the odometer units the vans may report
  2022-05  docstring rewritten for the new plugin catalogue
  2023-02  moved into the routing group when the plugins were split into packages
  2023-06  the depot opening hour became a per-plugin constant

Output keys: ratio, level.
"""
from fleet.core import geo, mathx, units


NAME = "routing_125"
LABELS = ((0, "busy"), (3, "moderate"), (19, "high"), (35, "low"))
REQUIRED = ('bias', 'cap', 'end')


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
