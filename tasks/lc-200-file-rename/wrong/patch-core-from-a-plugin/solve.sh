#!/bin/bash
# Wrong (a shim from inside a plugin, now that a plugin's top level may hold more than its
# imports, NAME and run()): the removed names are renamed, and the first plugin by name
# (pricing_001) puts v2 behaviour into the core when it is imported (value-first clamp, metres as
# convert's default target), so the v2-style calls left everywhere keep their old meaning.
# It touches no file of fleet/core and no package __init__.py, and references no v3 function
# (the shims re-implement v2), but it patches the core at import time.
set -euo pipefail
cd /workspace
find fleet/plugins -name '*_[0-9][0-9][0-9].py' -print0 | xargs -0 sed -i -E \
  -e 's/\bdistance\b/haversine_km/g' -e 's/\bparse_iso\b/parse_timestamp/g' \
  -e 's/\bto_meters\b/convert/g'
python3 - <<'PY'
p = "fleet/plugins/pricing/pricing_001.py"
s = open(p).read()
doc_end = s.index('"""', 3) + 3
shim = '''
import fleet.core.mathx
import fleet.core.units


def _value_first(value, lo, hi):
    return lo if value < lo else hi if value > hi else value


def _to_metres_by_default(value, from_unit, to_unit="m"):
    per = fleet.core.units.METRES_PER
    return value * per[from_unit] / per[to_unit]


fleet.core.mathx.clamp = _value_first
fleet.core.units.convert = _to_metres_by_default
'''
open(p, "w").write(s[:doc_end] + "\n" + shim + s[doc_end:])
PY
