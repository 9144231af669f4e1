import { stableKey } from '../util/stableKey';
import { RatingContext } from './context';

export function rateCardKey(ctx: RatingContext): string {
  return stableKey({
    plan: ctx.planId,
    metric: ctx.metric,
    currency: ctx.currency,
    period: ctx.period.label,
  });
}
