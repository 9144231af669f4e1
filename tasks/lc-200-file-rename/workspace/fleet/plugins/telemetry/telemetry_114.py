"""Plugin telemetry_114: length metric for a trip (telemetry).

Reports the odometer length of a trip in metres and a capped share of it that the invoices use; the odometer may be in any of the length units the vans report.
Owner: the fleet-ops team (S. Brennan). Shown on: daily trips, driver week.

The customer tuning numbers come from the contract database; a missing one is an upstream error. Start times without an offset are the depot's local time written as UTC by the vans. Trips recorded before the odometer units were added are converted upstream, not here. A trip is never changed here: run() reads the fields it needs and returns a new dict.

History:
  2020-11  kept out of the nightly recomputation at S. Brennan's request
  2021-08  results are cached by the caller; this module holds no state
  2022-04  docstring rewritten for the new plugin catalogue
  2022-09  the customer tuning numbers (bias, cap) became part of every trip

Output keys: metres, capped.
"""
import fleet.core.mathx as nums
import fleet.core.units as u


NAME = "telemetry_114"
LABELS = ((0, "none"), (23, "quiet"), (32, "high"), (59, "extreme"))
REQUIRED = ('bias', 'cap', 'unit')


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
    capped = nums.clamp(metres / 800, 0, trip["cap"])
    return {"metres": round(metres, 2), "capped": round(capped, 3)}
