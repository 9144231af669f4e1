import { Currency } from './currency';
import { MetricId } from './metric';

/** One band of a graduated price: units up to `upTo` (inclusive, cumulative) cost `unitPrice` cents per `per` units. */
export interface Tier {
  readonly upTo: number | null;
  readonly unitPrice: number;
}

export interface RateEntry {
  readonly metric: MetricId;
  readonly currency: Currency;
  /** Plans this entry is limited to; every plan when absent. */
  readonly plans?: readonly string[];
  readonly per: number;
  readonly tiers: readonly Tier[];
}

export interface PriceBook {
  readonly id: string;
  readonly extends?: string;
  readonly rates: readonly RateEntry[];
}

/** The price of one metric for one plan in one currency, as a price book chain resolves it. */
export interface RateCard {
  readonly metric: MetricId;
  readonly currency: Currency;
  readonly per: number;
  readonly tiers: readonly Tier[];
  /** The book in the chain the entry came from. */
  readonly source: string;
}
