#!/bin/bash
# Wrong (the cheapest migration script): a v2-compatible facade, fleet/compat.py, under
# v3-looking names, and every plugin pointed at it instead of fleet.core. No removed name
# is left and every plugin computes what it did on v2, but callers do not use the v3 API:
# this is the compatibility wrapper the instruction forbids.
set -euo pipefail
cd /workspace
cat > fleet/compat.py <<'PY'
"""v2 behaviour on the v3 core."""
from fleet.core import geo, mathx, timeutil, units

haversine_km = geo.haversine_km
parse_timestamp = timeutil.parse_timestamp


def to_metres(value, unit):
    return units.convert(value, unit, "m")


def clamp(value, lo, hi):
    return mathx.clamp(lo, hi, value)
PY
python3 - <<'PY'
import pathlib, re
for p in sorted(pathlib.Path("fleet/plugins").rglob("*_[0-9][0-9][0-9].py")):
    s = p.read_text()
    s = re.sub(r"^from fleet\.core import (.+)$",
               lambda m: "from fleet import " + ", ".join(f"compat as {n.strip()}" for n in m.group(1).split(",")),
               s, flags=re.M)
    s = re.sub(r"\bfleet\.core\.(geo|units|mathx|timeutil)\b", "fleet.compat", s)
    s = re.sub(r"\bdistance\b", "haversine_km", s)
    s = re.sub(r"\bparse_iso\b", "parse_timestamp", s)
    s = re.sub(r"\bto_meters", "to_metres", s)
    p.write_text(s)
PY
