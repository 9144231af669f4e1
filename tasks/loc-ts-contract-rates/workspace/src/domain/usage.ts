import { MetricId } from './metric';

export interface UsageRecord {
  readonly id: string;
  readonly subscription: string;
  readonly metric: MetricId;
  readonly quantity: number;
  /** Day the usage happened, YYYY-MM-DD. */
  readonly day: string;
}

export interface UsageTotal {
  readonly subscription: string;
  readonly metric: MetricId;
  readonly quantity: number;
}
