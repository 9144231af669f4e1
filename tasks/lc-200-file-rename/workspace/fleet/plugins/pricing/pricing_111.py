"""Plugin pricing_111: heading metric for a trip (pricing).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the billing team (L. Santos). Shown on: invoice preview, late arrivals.

The plugin is pure: the same trip always gives the same result, whatever ran before it. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-05  checked against last quarter's numbers: no change
  2021-01  kept out of the nightly recomputation at L. Santos's request
  2021-08  feet added to the odometer units the vans may report
  2022-03  the customer tuning numbers (bias, cap) became part of every trip
  2022-10  results are cached by the caller; this module holds no state
  2023-03  moved into the pricing group when the plugins were split into packages

Output keys: phase, swing.
"""
from fleet.core.geo import distance as span_km
from fleet.core.mathx import lerp as mix
from fleet.core.mathx import wrap as around


NAME = "pricing_111"
LABELS = ((0, "quiet"), (26, "peak"), (27, "low"), (59, "high"))
REQUIRED = ('cap', 'start', 'when')


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
    d_km = span_km(trip["start"], trip["end"])
    phase = around(d_km * 5 + trip["bias"], -180, 180)
    swing = mix(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
