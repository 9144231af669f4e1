"""Plugin pricing_131: length metric for a trip (pricing).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the billing team (J. Moreau). Shown on: daily trips, quarterly review.

Start times without an offset are the depot's local time written as UTC by the vans. If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first. The numbers are rounded only at the end, so that the dashboards and the invoices agree. The plugin is pure: the same trip always gives the same result, whatever ran before it.

History:
  2021-12  kept out of the nightly recomputation at J. Moreau's request
  2022-08  the customer tuning numbers (bias, cap) became part of every trip
  2023-01  output keys documented for the dashboards team
  2023-07  feet added to the odometer units the vans may report

Output keys: metres, capped.
"""
import fleet.core.mathx as mx
import fleet.core.units as u


NAME = "pricing_131"
LABELS = ((0, "none"), (29, "peak"), (56, "quiet"), (57, "extreme"))
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
    """Computes the length metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    metres = u.to_meters(trip["raw_len"], trip["unit"])
    span_args = (metres / 800, 0, trip["cap"])
    capped = mx.clamp(*span_args)
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
