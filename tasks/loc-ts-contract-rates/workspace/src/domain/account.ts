import { Currency } from './currency';

export interface Contract {
  readonly priceBook: string;
  /** First day the contract applies (inclusive). */
  readonly from: string;
  /** Last day the contract applies (inclusive); open-ended when absent. */
  readonly until?: string;
}

export interface Subscription {
  readonly id: string;
  readonly planId: string;
  /** A price book agreed for this subscription alone. */
  readonly priceBook?: string;
  readonly status: 'active' | 'cancelled';
}

export interface Account {
  readonly id: string;
  readonly name: string;
  readonly parent?: string;
  readonly currency: Currency;
  readonly taxRegion: string;
  readonly anchorDay: number;
  readonly contract?: Contract;
  readonly coupon?: string;
  readonly subscriptions: readonly Subscription[];
}
