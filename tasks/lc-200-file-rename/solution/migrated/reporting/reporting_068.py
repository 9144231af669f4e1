"""Plugin reporting_068: length metric for a trip (reporting).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the risk team (J. Moreau). Shown on: depot map, late arrivals.

Start times without an offset are the depot's local time written as UTC by the vans. The plugin is pure: the same trip always gives the same result, whatever ran before it. Results of this plugin are compared every night with the previous night's run for the same trips. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.

History:
  2020-03  output keys documented for the dashboards team
  2020-08  the label bands below were agreed with risk
  2021-01  results are cached by the caller; this module holds no state
  2021-07  kept out of the nightly recomputation at J. Moreau's request
  2022-03  the depot opening hour became a per-plugin constant

Output keys: metres, capped.
"""
from fleet.core import mathx, units


NAME = "reporting_068"
LABELS = ((0, "quiet"), (23, "extreme"), (28, "moderate"), (37, "peak"))
REQUIRED = ('cap', 'raw_len', 'start')


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
    metres = units.convert(trip["raw_len"], trip["unit"], "m")
    capped = mathx.clamp(0, trip["cap"], metres / 400)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
