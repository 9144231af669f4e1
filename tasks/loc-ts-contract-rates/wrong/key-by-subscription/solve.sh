#!/bin/bash
# Wrong: right function, fixed inside it alone: the key gets the account and the
# subscription, so no two subscriptions share a card. Invoices are right, but accounts on the
# same book no longer share its cards: one look-up per subscription and metric, not one per
# distinct card.
set -euo pipefail
cd /workspace
printf 'src/rating/cardKey.ts::rateCardKey\n' > ANSWER.txt
python3 - <<'PY'
p = "src/rating/cardKey.ts"
s = open(p).read()
old = "    plan: ctx.planId,\n"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "    account: ctx.accountId,\n    subscription: ctx.subscriptionId,\n" + old))
PY
