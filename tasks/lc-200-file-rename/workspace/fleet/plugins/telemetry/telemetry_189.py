"""Plugin telemetry_189: nested metric for a trip (telemetry).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (L. Santos). Shown on: depot map, late arrivals.

Results of this plugin are compared every night with the previous night's run for the same trips. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2022-06  kept out of the nightly recomputation at L. Santos's request
  2023-03  output keys documented for the dashboards team
  2023-07  the label bands below were agreed with platform
  2024-02  checked against last quarter's numbers: no change

Output keys: value.
"""
from fleet.core import geo, mathx, timeutil


NAME = "telemetry_189"
LABELS = ((0, "quiet"), (27, "moderate"), (46, "peak"), (49, "busy"))
REQUIRED = ('end', 'raw_len', 'unit')


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
    value = mathx.clamp(max(d_km, trip["bias"]) * (9 + t.minute / 60), min(1, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
