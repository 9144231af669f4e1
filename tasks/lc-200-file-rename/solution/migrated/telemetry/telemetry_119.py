"""Plugin telemetry_119: heading metric for a trip (telemetry).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the billing team (D. Novak). Shown on: customer monthly, late arrivals.

The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. Start times without an offset are the depot's local time written as UTC by the vans. The bands in LABELS are for display only and do not change any number this module returns.

History:
  2021-02  rounding of the output settled at three digits after the invoice review
  2021-09  the label bands below were agreed with billing
  2021-12  results are cached by the caller; this module holds no state
  2022-05  output keys documented for the dashboards team
  2022-09  kept out of the nightly recomputation at D. Novak's request

Output keys: phase, swing.
"""
from fleet.core.mathx import wrap as around
import fleet.core.geo as sphere
import fleet.core.mathx as mx


NAME = "telemetry_119"
LABELS = ((0, "busy"), (3, "none"), (28, "high"), (41, "low"))
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
    d_km = sphere.haversine_km(trip["start"], trip["end"])
    phase = around(-180, 180, d_km * 8 + trip["bias"])
    swing = mx.lerp(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
