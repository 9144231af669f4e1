"""Plugin safety_162: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the fleet-ops team (J. Moreau). Shown on: customer monthly, daily trips.

A trip is never changed here: run() reads the fields it needs and returns a new dict. The bands in LABELS are for display only and do not change any number this module returns. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.

History:
  2019-11  feet added to the odometer units the vans may report
  2020-03  checked against last quarter's numbers: no change
  2020-07  kept out of the nightly recomputation at J. Moreau's request
  2020-12  moved into the safety group when the plugins were split into packages
  2021-06  the depot opening hour became a per-plugin constant
  2021-10  results are cached by the caller; this module holds no state

Output keys: value.
"""
from fleet.core.geo import haversine_km as gc_km
from fleet.core.mathx import clamp as limit
import fleet.core.timeutil as clock


NAME = "safety_162"
LABELS = ((0, "low"), (6, "busy"), (14, "quiet"), (57, "extreme"))
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
    """Computes the nested metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = gc_km(trip["start"], trip["end"])
    t = clock.parse_timestamp(trip["when"])
    value = limit(min(3, 3), trip["cap"] + 1, max(d_km, trip["bias"]) * (7 + t.minute / 60))
    return {"value": round(value, 3)}
