"""Plugin routing_005: nested metric for a trip (routing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (J. Moreau). Shown on: customer monthly, quarterly review.

Results of this plugin are compared every night with the previous night's run for the same trips. The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2021-10  the label bands below were agreed with platform
  2021-12  the depot opening hour became a per-plugin constant
  2022-05  a trip without an end point is rejected upstream now, not here
  2022-09  moved into the routing group when the plugins were split into packages
  2023-04  the customer tuning numbers (bias, cap) became part of every trip
  2023-08  feet added to the odometer units the vans may report

Output keys: value.
"""
from fleet.core.geo import distance
from fleet.core.timeutil import parse_iso


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "routing_005"
LABELS = ((0, "low"), (6, "moderate"), (9, "none"), (24, "quiet"))
REQUIRED = ('cap', 'unit', 'when')


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
    d_km = distance(trip["start"], trip["end"])
    t = parse_iso(trip["when"])
    value = clamp(max(d_km, trip["bias"]) * (7 + t.minute / 60), min(3, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
