import { PriceBook, RateCard, RateEntry } from '../domain/priceBook';
import { Currency } from '../domain/currency';
import { MetricId } from '../domain/metric';
import { DataError, NotFoundError } from '../domain/errors';
import { AccountDirectory } from '../accounts/hierarchy';
import { RatingContext } from '../rating/context';
import { PlanCatalog } from './plans';

function matches(e: RateEntry, planId: string, metric: MetricId, currency: Currency): boolean {
  return e.metric === metric && e.currency === currency && (!e.plans || e.plans.includes(planId));
}

/** Price books and the `extends` chains between them. */
export class PriceBookCatalog {
  private readonly books = new Map<string, PriceBook>();

  constructor(
    books: readonly PriceBook[],
    private readonly plans: PlanCatalog,
    private readonly accounts: AccountDirectory,
  ) {
    for (const b of books) {
      if (this.books.has(b.id)) throw new DataError('pricebooks.json', `book ${b.id} is listed twice`);
      this.books.set(b.id, b);
    }
    for (const b of books) this.chain(b.id);
  }

  has(id: string): boolean {
    return this.books.has(id);
  }

  ids(): string[] {
    return [...this.books.keys()].sort();
  }

  /** The book and the books it extends, nearest first. */
  chain(id: string): PriceBook[] {
    const out: PriceBook[] = [];
    const seen = new Set<string>();
    for (let cur: string | undefined = id; cur !== undefined; ) {
      if (seen.has(cur)) throw new DataError('pricebooks.json', `book ${id}: extends chain loops at ${cur}`);
      seen.add(cur);
      const book = this.books.get(cur);
      if (!book) throw new NotFoundError('price book', cur);
      out.push(book);
      cur = book.extends;
    }
    return out;
  }

  /** The rate of a metric for a plan in a currency from a named book, looked up along its chain. */
  cardFromBook(bookId: string, planId: string, metric: MetricId, currency: Currency): RateCard {
    for (const book of this.chain(bookId)) {
      const e = book.rates.find((r) => matches(r, planId, metric, currency));
      if (e) return { metric, currency, per: e.per, tiers: e.tiers, source: book.id };
    }
    throw new NotFoundError(`rate for ${metric} in ${currency} on plan ${planId} in book`, bookId);
  }

  /** The rate card a subscription's usage of one metric is charged from in a period. */
  rateCard(ctx: RatingContext): RateCard {
    const { subscription } = this.accounts.subscription(ctx.subscriptionId);
    const contract = this.accounts.contractOn(ctx.accountId, ctx.period.start);
    const bookId = subscription.priceBook ?? contract?.priceBook ?? this.plans.get(ctx.planId).defaultBook;
    return this.cardFromBook(bookId, ctx.planId, ctx.metric, ctx.currency);
  }
}
