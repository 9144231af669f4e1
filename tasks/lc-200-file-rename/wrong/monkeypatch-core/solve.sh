#!/bin/bash
# Wrong (a shim without touching fleet/core): the removed names are renamed in the plugins,
# and the plugins' package patches fleet.core when it is imported (v2 argument order back
# into mathx.clamp, metres as convert's default target), so v2-style calls keep their
# old meaning. The core's files are
# unchanged and every plugin computes what it did on v2, but the plugins call a patched
# core, not the v3 API.
set -euo pipefail
cd /workspace
find fleet/plugins -name '*_[0-9][0-9][0-9].py' -print0 | xargs -0 sed -i -E \
  -e 's/\bdistance\b/haversine_km/g' -e 's/\bparse_iso\b/parse_timestamp/g' \
  -e 's/to_meters/convert/g'
cat >> fleet/plugins/__init__.py <<'PY'


def _v2_order():
    from fleet.core import mathx, units
    v3_clamp, v3_convert = mathx.clamp, units.convert

    def clamp(value, lo, hi):
        return v3_clamp(lo, hi, value)

    def convert(value, from_unit, to_unit="m"):
        return v3_convert(value, from_unit, to_unit)

    mathx.clamp, units.convert = clamp, convert


_v2_order()
PY
