"""Plugin safety_192: nested metric for a trip (safety).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the risk team (J. Moreau). Shown on: depot map, on-call overview.

Start times without an offset are the depot's local time written as UTC by the vans. The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2020-08  the customer tuning numbers (bias, cap) became part of every trip
  2021-05  a trip without an end point is rejected upstream now, not here
  2021-12  moved into the safety group when the plugins were split into packages
  2022-04  the label bands below were agreed with risk
  2022-09  results are cached by the caller; this module holds no state
  2023-01  feet added to the odometer units the vans may report

Output keys: value.
"""
import fleet.core.geo as geom
import fleet.core.timeutil as clock


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "safety_192"
LABELS = ((0, "low"), (10, "none"), (24, "moderate"), (28, "extreme"))
REQUIRED = ('end', 'start', 'when')


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
    d_km = geom.haversine_km(trip["start"], trip["end"])
    t = clock.parse_timestamp(trip["when"])
    value = clamp(max(d_km, trip["bias"]) * (3 + t.minute / 60), min(4, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
