#!/bin/bash
# Wrong: right function; the key gets the book of the account's contract (else the plan's
# default) but not a subscription's own price book, so a subscription with a book of its own
# and one without still share a card (the fix breaks the subscription-book path).
set -euo pipefail
cd /workspace
printf 'src/rating/cardKey.ts::rateCardKey\n' > ANSWER.txt
python3 - <<'PY'
def patch(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, (path, old)
    open(path, "w").write(s.replace(old, new))

patch("src/rating/cardKey.ts",
      "export function rateCardKey(ctx: RatingContext): string {\n  return stableKey({\n",
      "export function rateCardKey(ctx: RatingContext, book: string): string {\n  return stableKey({\n    book,\n")
patch("src/catalog/priceBooks.ts",
      "  /** The rate card a subscription's usage of one metric is charged from in a period. */\n",
      """  contractBook(ctx: RatingContext): string {
    const contract = this.accounts.contractOn(ctx.accountId, ctx.period.start);
    return contract?.priceBook ?? this.plans.get(ctx.planId).defaultBook;
  }

  /** The rate card a subscription's usage of one metric is charged from in a period. */
""")
patch("src/rating/provider.ts", "    const key = rateCardKey(ctx);\n",
      "    const key = rateCardKey(ctx, this.catalog.contractBook(ctx));\n")
PY
