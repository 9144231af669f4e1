import { UsageRecord, UsageTotal } from '../domain/usage';
import { BillingPeriod } from '../domain/period';
import { MetricCatalog } from '../catalog/metrics';
import { log } from '../util/log';
import { dedupe, inPeriod } from './filters';

export function usageKey(subscription: string, metric: string): string {
  return `${subscription}\u0000${metric}`;
}

/** Totals of each subscription's usage of each metric in the period. */
export class UsageLedger {
  private readonly totals = new Map<string, number>();

  constructor(records: readonly UsageRecord[], period: BillingPeriod, metrics: MetricCatalog) {
    for (const r of dedupe(inPeriod(records, period))) {
      const metric = metrics.canonical(r.metric);
      if (!metric) {
        log.warn(`usage ${r.id}: unknown metric ${r.metric}, ignored`);
        continue;
      }
      const k = usageKey(r.subscription, metric);
      this.totals.set(k, (this.totals.get(k) ?? 0) + r.quantity);
    }
  }

  used(subscription: string, metric: string): number {
    return this.totals.get(usageKey(subscription, metric)) ?? 0;
  }

  entries(): UsageTotal[] {
    return [...this.totals.entries()].map(([k, quantity]) => {
      const [subscription, metric] = k.split('\u0000');
      return { subscription, metric, quantity };
    });
  }
}
