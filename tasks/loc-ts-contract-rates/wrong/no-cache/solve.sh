#!/bin/bash
# Wrong: right function named; every invoice is right because the provider no longer caches
# at all, but the run then looks a card up for every subscription and metric instead of once
# per distinct card, which README.md and the instruction require (rate cards resolved).
set -euo pipefail
cd /workspace
printf 'src/rating/cardKey.ts::rateCardKey\n' > ANSWER.txt
python3 - <<'PY'
p = "src/rating/provider.ts"
s = open(p).read()
old = "    const hit = this.cache.get(key);\n    if (hit) return hit;\n"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, ""))
PY
