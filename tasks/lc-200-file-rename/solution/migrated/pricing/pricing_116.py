"""Plugin pricing_116: combo metric for a trip (pricing).

Compares the odometer length with the straight-line length of a trip, and sorts the trip into one of five levels by how far it went.
Owner: the platform team (L. Santos). Shown on: depot map, quarterly review.

The numbers are rounded only at the end, so that the dashboards and the invoices agree. The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log. The customer tuning numbers come from the contract database; a missing one is an upstream error. Trips recorded before the odometer units were added are converted upstream, not here.

History:
  2020-10  checked against last quarter's numbers: no change
  2021-06  output keys documented for the dashboards team
  2021-10  moved into the pricing group when the plugins were split into packages
  2021-12  feet added to the odometer units the vans may report
  2022-04  kept out of the nightly recomputation at L. Santos's request
  2022-08  the customer tuning numbers (bias, cap) became part of every trip

Output keys: ratio, level.
"""
import fleet.core.geo
import fleet.core.mathx
import fleet.core.units


NAME = "pricing_116"
__all__ = ["NAME", "run", "describe"]
LABELS = ((0, "none"), (22, "peak"), (49, "moderate"), (56, "low"))
REQUIRED = ('bias', 'start', 'when')


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
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    # v2 called the functions without the fleet.core prefix here.
    d_km = fleet.core.geo.haversine_km(trip["start"], trip["end"])
    metres = fleet.core.units.convert(trip["raw_len"], trip["unit"], "m")
    level = fleet.core.mathx.clamp(lo=1, hi=5, value=int(d_km // 3))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}


if __name__ == "__main__":
    print(describe(run({"start": (52.0, 4.0), "end": (52.1, 4.2), "raw_len": 9, "unit": "km", "when": "2024-01-01T08:00:00", "bias": 1, "cap": 40})))
