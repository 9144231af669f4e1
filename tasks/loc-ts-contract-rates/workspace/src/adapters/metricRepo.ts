import { MetricDefinition } from '../domain/metric';
import { DataError } from '../domain/errors';
import { isPlainObject } from '../util/objects';
import { FileStore } from './fileStore';

export function loadMetrics(store: FileStore): MetricDefinition[] {
  const raw = store.readJson('metrics.json');
  if (!isPlainObject(raw) || !Array.isArray(raw.metrics)) throw new DataError('metrics.json', 'expected {"metrics": [...]}');
  return raw.metrics.map((m: unknown, i: number) => {
    if (!isPlainObject(m) || typeof m.id !== 'string') throw new DataError('metrics.json', `metrics[${i}]: needs an id`);
    return {
      id: m.id,
      unit: typeof m.unit === 'string' ? m.unit : 'unit',
      aliases: Array.isArray(m.aliases) ? (m.aliases as string[]) : [],
    };
  });
}
