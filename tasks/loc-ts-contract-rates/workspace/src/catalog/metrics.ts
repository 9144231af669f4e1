import { MetricDefinition, MetricId } from '../domain/metric';
import { snake } from '../util/strings';

/** Maps every spelling a meter may report (`API-Calls`, `requests`) to the metric's id. */
export class MetricCatalog {
  private readonly byName = new Map<string, MetricDefinition>();

  constructor(readonly definitions: readonly MetricDefinition[]) {
    for (const d of definitions) {
      this.byName.set(snake(d.id), d);
      // TODO(2026-02): drop the aliases once every edge agent reports canonical ids.
      for (const a of d.aliases) this.byName.set(snake(a), d);
    }
  }

  canonical(name: string): MetricId | undefined {
    return this.byName.get(snake(name))?.id;
  }

  unit(id: MetricId): string {
    return this.byName.get(snake(id))?.unit ?? 'unit';
  }
}
