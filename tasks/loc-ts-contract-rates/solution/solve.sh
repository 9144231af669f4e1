#!/bin/bash
# Oracle: the month-end run rates every subscription through RateCardProvider, which caches
# rate cards under rateCardKey(ctx). That key holds the plan, metric, currency and period but
# not the price book the card comes from, so the first account rated for a plan and currency
# decides the rates of every later one: a contract's book (or a subscription's own, or the
# list) leaks to the others. The price book is chosen inside PriceBookCatalog.rateCard, after
# the cache was asked, so the fix moves that choice into bookFor(ctx), has the provider choose
# the book first, and keys the card by the book as well (one look-up per distinct card, as
# before).
# Two names are right (tests/answer_line.py): rateCardKey, whose key leaves the book out, and
# RateCardProvider.cardFor, which asks the cache with it before the book is chosen. The oracle
# names the method and the scripted trajectory the key function, so that validation and the
# scripted run between them exercise both.
set -euo pipefail
cd /workspace
printf 'src/rating/provider.ts::RateCardProvider.cardFor\n' > ANSWER.txt
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
