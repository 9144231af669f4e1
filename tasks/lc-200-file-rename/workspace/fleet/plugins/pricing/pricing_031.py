"""Plugin pricing_031: nested metric for a trip (pricing).

Weighs the straight-line length of a trip by the minute it started, for the surcharge model that the pricing team tunes per customer.
Owner: the platform team (R. Tanaka). Shown on: daily trips, driver week.

The plugin is pure: the same trip always gives the same result, whatever ran before it. The customer tuning numbers come from the contract database; a missing one is an upstream error. Trips recorded before the odometer units were added are converted upstream, not here. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2021-12  output keys documented for the dashboards team
  2022-04  docstring rewritten for the new plugin catalogue
  2022-09  moved into the pricing group when the plugins were split into packages
  2023-04  feet added to the odometer units the vans may report
  2023-09  the label bands below were agreed with platform

Output keys: value.
"""
from fleet.core.geo import distance
from fleet.core.mathx import clamp
from fleet.core.timeutil import parse_iso


NAME = "pricing_031"
LABELS = ((0, "moderate"), (12, "quiet"), (14, "high"), (51, "peak"))
REQUIRED = ('raw_len', 'unit', 'when')


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
    value = clamp(max(d_km, trip["bias"]) * (9 + t.minute / 60), min(1, 3), trip["cap"] + 1)
    return {"value": round(value, 3)}
