"""Plugin routing_130: heading metric for a trip (routing).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the insights team (J. Moreau). Shown on: depot map, driver week.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2020-12  docstring rewritten for the new plugin catalogue
  2021-03  feet added to the odometer units the vans may report
  2021-12  a trip without an end point is rejected upstream now, not here
  2022-07  results are cached by the caller; this module holds no state
  2022-12  moved into the routing group when the plugins were split into packages
  2023-03  the customer tuning numbers (bias, cap) became part of every trip

Output keys: phase, swing.
"""
from fleet.core.geo import distance as distance_fn
import fleet.core.mathx as numeric


NAME = "routing_130"
LABELS = ((0, "none"), (1, "high"), (30, "quiet"), (37, "moderate"))
REQUIRED = ('bias', 'end', 'start')


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
    """Computes the heading metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = distance_fn(trip["start"], trip["end"])
    phase = numeric.wrap(d_km * 4 + trip["bias"], -180, 180)
    swing = numeric.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
