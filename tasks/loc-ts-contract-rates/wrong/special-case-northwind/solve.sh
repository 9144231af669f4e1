#!/bin/bash
# Wrong (the cheapest shortcut): right function named, but only the reported customer (and
# its child accounts) bypass the cache; every other contract, subscription book and list
# account still takes the first card cached for its plan and currency.
set -euo pipefail
cd /workspace
printf 'src/rating/cardKey.ts::rateCardKey\n' > ANSWER.txt
python3 - <<'PY'
p = "src/rating/provider.ts"
s = open(p).read()
old = "    const key = rateCardKey(ctx);\n"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "    if (ctx.accountId.startsWith('northwind')) return this.catalog.rateCard(ctx);\n" + old))
PY
