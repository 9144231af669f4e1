"""Plugin pricing_056: length metric for a trip (pricing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the dispatch team (E. Castillo). Shown on: invoice preview, quarterly review.

Results of this plugin are compared every night with the previous night's run for the same trips. Start times without an offset are the depot's local time written as UTC by the vans. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2019-06  results are cached by the caller; this module holds no state
  2019-12  docstring rewritten for the new plugin catalogue
  2020-07  rounding of the output settled at three digits after the invoice review
  2020-09  checked against last quarter's numbers: no change

Output keys: metres, capped.
"""
from fleet.core.units import convert


def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value


NAME = "pricing_056"
LABELS = ((0, "peak"), (11, "busy"), (15, "none"), (49, "low"))
REQUIRED = ('cap', 'raw_len', 'when')


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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = convert(trip["raw_len"], trip["unit"], "m")
    capped = clamp(metres / 800, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
