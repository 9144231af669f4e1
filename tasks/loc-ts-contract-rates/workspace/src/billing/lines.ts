import { Account, Subscription } from '../domain/account';
import { InvoiceLine } from '../domain/invoice';
import { money } from '../domain/money';
import { BillingPeriod } from '../domain/period';
import { meteredMetrics } from '../domain/plan';
import { PlanCatalog } from '../catalog/plans';
import { UsageLedger } from '../usage/aggregate';
import { RateCardProvider } from '../rating/provider';
import { ratingContext } from '../rating/context';
import { rateGraduated } from '../rating/tiers';
import { overage } from '../rating/allowance';
import { formatThousands } from '../util/strings';

export function baseFeeLine(account: Account, sub: Subscription, plans: PlanCatalog): InvoiceLine {
  const plan = plans.get(sub.planId);
  return {
    kind: 'base',
    subscription: sub.id,
    description: `${plan.name} plan`,
    amount: plans.baseFee(plan.id, account.currency),
  };
}

/** One line per metered metric of the subscription's plan: the units over the allowance, rated. */
export function usageLines(
  account: Account,
  sub: Subscription,
  period: BillingPeriod,
  plans: PlanCatalog,
  usage: UsageLedger,
  rates: RateCardProvider,
): InvoiceLine[] {
  const plan = plans.get(sub.planId);
  return meteredMetrics(plan).map((metric) => {
    const used = usage.used(sub.id, metric);
    const over = overage(plan, metric, used);
    const card = rates.cardFor(ratingContext(account, sub, metric, period));
    return {
      kind: 'usage' as const,
      subscription: sub.id,
      description: `${metric} ${formatThousands(used)} used, ${formatThousands(plan.included[metric])} included`,
      quantity: over,
      amount: money(rateGraduated(over, card), account.currency),
    };
  });
}
