#!/bin/bash
# Wrong: the oracle's code fix, but the answer names the method that chooses the price book
# (it chooses it correctly; the defect is the cache key that leaves the book out).
set -euo pipefail
cd /workspace
printf 'src/catalog/priceBooks.ts::PriceBookCatalog.rateCard\n' > ANSWER.txt
python3 - <<'PY'
def patch(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, (path, old)
    open(path, "w").write(s.replace(old, new))

patch("src/rating/cardKey.ts",
      "export function rateCardKey(ctx: RatingContext): string {\n  return stableKey({\n",
      "export function rateCardKey(ctx: RatingContext, book: string): string {\n  return stableKey({\n    book,\n")

patch("src/catalog/priceBooks.ts",
      """  /** The rate card a subscription's usage of one metric is charged from in a period. */
  rateCard(ctx: RatingContext): RateCard {
    const { subscription } = this.accounts.subscription(ctx.subscriptionId);
    const contract = this.accounts.contractOn(ctx.accountId, ctx.period.start);
    const bookId = subscription.priceBook ?? contract?.priceBook ?? this.plans.get(ctx.planId).defaultBook;
    return this.cardFromBook(bookId, ctx.planId, ctx.metric, ctx.currency);
  }
""",
      """  /** The price book a subscription's usage is rated from in a period. */
  bookFor(ctx: RatingContext): string {
    const { subscription } = this.accounts.subscription(ctx.subscriptionId);
    const contract = this.accounts.contractOn(ctx.accountId, ctx.period.start);
    return subscription.priceBook ?? contract?.priceBook ?? this.plans.get(ctx.planId).defaultBook;
  }

  /** The rate card a subscription's usage of one metric is charged from in a period. */
  rateCard(ctx: RatingContext): RateCard {
    return this.cardFromBook(this.bookFor(ctx), ctx.planId, ctx.metric, ctx.currency);
  }
""")

patch("src/rating/provider.ts",
      """    const key = rateCardKey(ctx);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const card = this.catalog.rateCard(ctx);
""",
      """    const book = this.catalog.bookFor(ctx);
    const key = rateCardKey(ctx, book);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const card = this.catalog.cardFromBook(book, ctx.planId, ctx.metric, ctx.currency);
""")
PY
