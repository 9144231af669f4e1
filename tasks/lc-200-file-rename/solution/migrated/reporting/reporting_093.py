"""Plugin reporting_093: heading metric for a trip (reporting).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the billing team (L. Santos). Shown on: on-call overview, quarterly review.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Start times without an offset are the depot's local time written as UTC by the vans.

History:
  2021-06  docstring rewritten for the new plugin catalogue
  2021-11  a trip without an end point is rejected upstream now, not here
  2022-03  the depot opening hour became a per-plugin constant
  2022-08  results are cached by the caller; this module holds no state

Output keys: phase, swing.
"""
import fleet.core.geo as geom
import fleet.core.mathx as nums


NAME = "reporting_093"
LABELS = ((0, "high"), (44, "low"), (52, "peak"), (57, "moderate"))
REQUIRED = ('bias', 'raw_len', 'unit')


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
    d_km = geom.haversine_km(trip["start"], trip["end"])
    phase = nums.wrap(-180, 180, d_km * 5 + trip["bias"])
    swing = nums.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
