"""Plugin routing_105: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the risk team (S. Brennan). Shown on: depot map, driver week.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. A trip is never changed here: run() reads the fields it needs and returns a new dict. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2019-12  output keys documented for the dashboards team
  2020-05  kept out of the nightly recomputation at S. Brennan's request
  2020-12  a trip without an end point is rejected upstream now, not here
  2021-08  checked against last quarter's numbers: no change

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_iso


NAME = "routing_105"
LABELS = ((0, "quiet"), (3, "moderate"), (47, "low"), (54, "extreme"))
REQUIRED = ('end', 'raw_len', 'start')


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
    slot = wrap(t.hour + t.minute / 60 + 8, 0, 24)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
