import { MetricId } from './metric';

export interface Plan {
  readonly id: string;
  readonly name: string;
  /** Monthly base fee in cents, per currency. */
  readonly baseFee: Readonly<Record<string, number>>;
  /** Units of each metric included in the base fee every month. */
  readonly included: Readonly<Record<MetricId, number>>;
  /** The price book a subscriber without a contract is rated from. */
  readonly defaultBook: string;
}

export function meteredMetrics(plan: Plan): MetricId[] {
  return Object.keys(plan.included).sort() as MetricId[];
}
