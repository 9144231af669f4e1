#!/bin/bash
# Wrong: renames the removed functions (the import errors go away) but leaves v2-order
# clamp calls, which now mean something else.
set -euo pipefail
cd /workspace
find fleet/plugins -name '*.py' -print0 | xargs -0 sed -i -E \
  -e 's/\bdistance\b/haversine_km/g' -e 's/\bparse_iso\b/parse_timestamp/g' \
  -e 's/\bto_meters\(([^()]*)\)/convert(\1, "m")/g' -e 's/\bto_meters\b/convert/g'
