/** A canonical metric id, e.g. `api_calls` or `storage_gb`. */
export type MetricId = string;

export interface MetricDefinition {
  readonly id: MetricId;
  readonly unit: string;
  readonly aliases: readonly string[];
}
