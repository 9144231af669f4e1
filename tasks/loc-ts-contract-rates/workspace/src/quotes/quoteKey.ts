import { stableKey } from '../util/stableKey';
import { QuoteRequest } from './quoteService';

export function quoteKey(q: QuoteRequest): string {
  return stableKey({ plan: q.planId, book: q.book, metric: q.metric, currency: q.currency });
}
