"""Plugin pricing_136: heading metric for a trip (pricing).

Turns the straight-line length of a trip into a phase on a dial, for the round-robin dispatch display, and how far the needle swings.
Owner: the customer success team (J. Moreau). Shown on: depot map, on-call overview.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The bands in LABELS are for display only and do not change any number this module returns. The plugin is pure: the same trip always gives the same result, whatever ran before it. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2020-06  results are cached by the caller; this module holds no state
  2021-02  moved into the pricing group when the plugins were split into packages
  2021-05  checked against last quarter's numbers: no change
  2022-01  the customer tuning numbers (bias, cap) became part of every trip

Output keys: phase, swing.
"""
from fleet.core.mathx import lerp as mix
import fleet.core.geo as sphere
import fleet.core.mathx as nums


NAME = "pricing_136"
LABELS = ((0, "none"), (9, "low"), (15, "quiet"), (57, "busy"))
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
    """Computes the heading metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = sphere.haversine_km(trip["start"], trip["end"])
    phase = nums.wrap(-180, 180, d_km * 8 + trip["bias"])
    swing = mix(0, trip["cap"], abs(phase) / 180)
    return {"phase": round(phase, 3), "swing": round(swing, 3)}
