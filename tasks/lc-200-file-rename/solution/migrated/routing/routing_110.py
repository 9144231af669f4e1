"""Plugin routing_110: shift metric for a trip (routing).

Moves the start of a trip into the local hour of another depot and spreads the customer's tuning range over the day accordingly.
Owner: the customer success team (L. Santos). Shown on: customer monthly, driver week.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. Start times without an offset are the depot's local time written as UTC by the vans. Results of this plugin are compared every night with the previous night's run for the same trips. The customer tuning numbers come from the contract database; a missing one is an upstream error.

History:
  2020-11  the depot opening hour became a per-plugin constant
  2021-03  the label bands below were agreed with customer success
  2021-09  kept out of the nightly recomputation at L. Santos's request
  2021-11  the customer tuning numbers (bias, cap) became part of every trip
  2022-03  docstring rewritten for the new plugin catalogue

Output keys: slot, share.
"""
from fleet.core.mathx import lerp, wrap
from fleet.core.timeutil import parse_timestamp


NAME = "routing_110"
LABELS = ((0, "none"), (7, "moderate"), (13, "quiet"), (24, "low"))
REQUIRED = ('bias', 'cap', 'end')


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
    t = parse_timestamp(trip["when"])
    slot = wrap(0, 24, t.hour + t.minute / 60 + 3)
    share = lerp(trip["bias"], trip["cap"], slot / 24)
    return {"slot": round(slot, 3), "share": round(share, 3)}
