"""After migrate.py: rewrites two migrated plugins in other forms that are just as right, so
that every validation shows the hidden checks accepting them (a plain `import
fleet.core.geo`, `from fleet import core`, keyword arguments, builtins of any kind, a
comment that names the v2 function, constants, `__all__`, a helper that does not touch
the core and a `__main__` block at top level)."""
import pathlib

REWRITES = {
    "fleet/plugins/reporting/reporting_058.py": ('''"""Plugin reporting_058: score metric for a trip (reporting)."""
from fleet.core import geo, mathx


NAME = "reporting_058"


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.haversine_km(trip["start"], trip["end"])
    score = mathx.clamp(4, trip["cap"], d_km * 9 + trip["bias"])
    return {"score": round(score, 3)}
''', '''"""Plugin reporting_058: score metric for a trip (reporting)."""
import fleet.core.geo
import fleet.core.mathx

NAME = "reporting_058"
DIGITS = 3
__all__ = ["NAME", "run"]


def _rounded(x):
    return round(x, DIGITS)


def run(trip):
    """Computes the score metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    # v2 called distance(start, end) here.
    d_km = fleet.core.geo.haversine_km(trip["start"], trip["end"])
    raw = sum((d_km * 9, trip["bias"]))
    score = fleet.core.mathx.clamp(lo=4, hi=trip["cap"], value=raw)
    return {"score": _rounded(score)}


if __name__ == "__main__":
    print(run({"start": (52.0, 4.0), "end": (52.1, 4.2), "bias": 1, "cap": 40}))
'''),
    "fleet/plugins/reporting/reporting_028.py": ('''"""Plugin reporting_028: combo metric for a trip (reporting)."""
from fleet.core import geo, mathx, units


NAME = "reporting_028"


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = geo.haversine_km(trip["start"], trip["end"])
    metres = units.convert(trip["raw_len"], trip["unit"], "m")
    level = mathx.clamp(1, 5, int(d_km // 3))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
''', '''"""Plugin reporting_028: combo metric for a trip (reporting)."""
from fleet import core

METRES = "m"
NAME = "reporting_028"


def run(trip):
    """Computes the combo metric of one trip (see fleet.plugins.TRIP_FIELDS)."""
    d_km = core.geo.haversine_km(b=trip["end"], a=trip["start"])
    metres = core.units.convert(trip["raw_len"], trip["unit"], to_unit=METRES)  # was to_meters
    level = core.mathx.clamp(1, 5, int(divmod(d_km, 3)[0]))
    return {"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}
'''),
}

for rel, (old, new) in REWRITES.items():
    path = pathlib.Path(rel)
    assert path.read_text() == old, f"{rel} is not what migrate.py writes"
    path.write_text(new)
print(f"rewrote {len(REWRITES)} plugins in other right forms")
