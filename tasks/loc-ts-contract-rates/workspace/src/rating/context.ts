import { Account, Subscription } from '../domain/account';
import { Currency } from '../domain/currency';
import { MetricId } from '../domain/metric';
import { BillingPeriod } from '../domain/period';

/** What rating one subscription's usage of one metric in one period depends on. */
export interface RatingContext {
  readonly accountId: string;
  readonly subscriptionId: string;
  readonly planId: string;
  readonly metric: MetricId;
  readonly currency: Currency;
  readonly period: BillingPeriod;
}

export function ratingContext(account: Account, sub: Subscription, metric: MetricId, period: BillingPeriod): RatingContext {
  return {
    accountId: account.id,
    subscriptionId: sub.id,
    planId: sub.planId,
    metric,
    currency: account.currency,
    period,
  };
}
