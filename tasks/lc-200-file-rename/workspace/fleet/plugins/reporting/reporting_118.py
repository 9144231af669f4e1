"""Plugin reporting_118: nested metric for a trip (reporting).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the insights team (K. Iyer). Shown on: daily trips, late arrivals.

Trips recorded before the odometer units were added are converted upstream, not here. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The customer tuning numbers come from the contract database; a missing one is an upstream error. The numbers are rounded only at the end, so that the dashboards and the invoices agree.

History:
  2020-04  output keys documented for the dashboards team
  2020-12  checked against last quarter's numbers: no change
  2021-08  feet added to the odometer units the vans may report
  2022-05  kept out of the nightly recomputation at K. Iyer's request
  2023-01  moved into the reporting group when the plugins were split into packages

Output keys: value.
"""
from fleet.core import geo, mathx, timeutil


NAME = "reporting_118"
LABELS = ((0, "busy"), (11, "moderate"), (26, "peak"), (33, "low"))
REQUIRED = ('raw_len', 'unit', 'when')
CALC = {"clamp": mathx.clamp}


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
    d_km = geo.distance(trip["start"], trip["end"])
    t = timeutil.parse_iso(trip["when"])
    value = CALC["clamp"](max(d_km, trip["bias"]) * (8 + t.minute / 60), min(4, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
