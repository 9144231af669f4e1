"""Plugin routing_080: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the insights team (R. Tanaka). Shown on: depot map, late arrivals.

Start times without an offset are the depot's local time written as UTC by the vans. The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. Results of this plugin are compared every night with the previous night's run for the same trips.

History:
  2021-10  docstring rewritten for the new plugin catalogue
  2022-05  feet added to the odometer units the vans may report
  2022-11  output keys documented for the dashboards team
  2023-06  the label bands below were agreed with insights

Output keys: slot, share.
"""
from fleet.core.mathx import wrap as fold
import fleet.core.mathx as numeric
import fleet.core.timeutil as clock


NAME = "routing_080"
LABELS = ((0, "none"), (15, "low"), (36, "moderate"), (54, "busy"))
REQUIRED = ('end', 'raw_len', 'when')


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
    """Computes the shift metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    t = clock.parse_iso(trip["when"])
    slot = fold(t.hour + t.minute / 60 + 8, 0, 24)
    share = numeric.lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
