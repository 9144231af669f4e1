#!/bin/bash
# Wrong: names the other right answer (RateCardProvider.cardFor) and fixes it alone: it asks
# the catalog for the card first, then caches it under the old key plus the book the card came
# from (its source), counting the misses as look-ups. Every card is looked up again for each
# subscription, and two books that take an entry from the same book they extend share a
# count: the run reports fewer look-ups than there are distinct cards (book, plan, metric,
# currency).
set -euo pipefail
cd /workspace
printf 'src/rating/provider.ts::RateCardProvider.cardFor\n' > ANSWER.txt
python3 - <<'PY'
p = "src/rating/provider.ts"
s = open(p).read()
old = """    const key = rateCardKey(ctx);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const card = this.catalog.rateCard(ctx);
"""
new = """    const fresh = this.catalog.rateCard(ctx);
    const key = rateCardKey(ctx) + '|' + fresh.source;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const card = fresh;
"""
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
