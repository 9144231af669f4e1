"""Plugin routing_030: nested metric for a trip (routing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the risk team (K. Iyer). Shown on: customer monthly, daily trips.

Trips recorded before the odometer units were added are converted upstream, not here. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2021-06  output keys documented for the dashboards team
  2021-09  kept out of the nightly recomputation at K. Iyer's request
  2022-06  rounding of the output settled at three digits after the invoice review
  2023-02  the customer tuning numbers (bias, cap) became part of every trip
  2023-05  feet added to the odometer units the vans may report
  2023-12  results are cached by the caller; this module holds no state

Output keys: value.
"""
from fleet.core import geo, mathx, timeutil


NAME = "routing_030"
LABELS = ((0, "quiet"), (1, "extreme"), (2, "peak"), (54, "moderate"))
REQUIRED = ('bias', 'end', 'unit')


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
    value = mathx.clamp(max(d_km, trip["bias"]) * (4 + t.minute / 60), min(3, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
