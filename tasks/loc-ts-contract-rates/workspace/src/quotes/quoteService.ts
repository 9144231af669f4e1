import { Currency } from '../domain/currency';
import { MetricId } from '../domain/metric';
import { RateCard } from '../domain/priceBook';
import { PlanCatalog } from '../catalog/plans';
import { PriceBookCatalog } from '../catalog/priceBooks';
import { rateGraduated } from '../rating/tiers';
import { overage } from '../rating/allowance';
import { LruCache } from '../util/lru';
import { quoteKey } from './quoteKey';

export interface QuoteRequest {
  planId: string;
  book?: string;
  metric: MetricId;
  currency: Currency;
  quantity: number;
}

export interface Quote extends QuoteRequest {
  book: string;
  billable: number;
  cents: number;
  source: string;
}

/** Prices a hypothetical month of usage, for sales: no account, no contract, just a book. */
export class QuoteService {
  private readonly cards = new LruCache<RateCard>(64);

  constructor(private readonly plans: PlanCatalog, private readonly books: PriceBookCatalog) {}

  quote(req: QuoteRequest): Quote {
    const plan = this.plans.get(req.planId);
    const book = req.book ?? plan.defaultBook;
    const key = quoteKey({ ...req, book });
    let card = this.cards.get(key);
    if (!card) {
      card = this.books.cardFromBook(book, plan.id, req.metric, req.currency);
      this.cards.set(key, card);
    }
    const billable = overage(plan, req.metric, req.quantity);
    return { ...req, book, billable, cents: rateGraduated(billable, card), source: card.source };
  }
}
