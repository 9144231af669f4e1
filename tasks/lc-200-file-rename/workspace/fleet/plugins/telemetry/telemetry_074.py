"""Plugin telemetry_074: shift metric for a trip (telemetry).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the platform team (S. Brennan). Shown on: invoice preview, on-call overview.

Results of this plugin are compared every night with the previous night's run for the same trips. The plugin is pure: the same trip always gives the same result, whatever ran before it. Trips recorded before the odometer units were added are converted upstream, not here. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2020-05  output keys documented for the dashboards team
  2020-10  results are cached by the caller; this module holds no state
  2021-01  checked against last quarter's numbers: no change
  2021-07  kept out of the nightly recomputation at S. Brennan's request

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_iso


NAME = "telemetry_074"
LABELS = ((0, "moderate"), (16, "high"), (19, "none"), (42, "extreme"))
REQUIRED = ('end', 'start', 'unit')


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
    t = parse_iso(trip["when"])
    slot = wrap(t.hour + t.minute / 60 + 3, 0, 24)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
