import { Plan } from '../domain/plan';
import { MetricId } from '../domain/metric';

/** Units above what the plan includes each month. */
export function overage(plan: Plan, metric: MetricId, used: number): number {
  const included = plan.included[metric] ?? 0;
  return Math.max(0, used - included);
}
