import { UsageRecord } from '../domain/usage';
import { BillingPeriod } from '../domain/period';
import { DataError } from '../domain/errors';
import { isPlainObject } from '../util/objects';
import { isIsoDate } from '../util/dates';
import { FileStore } from './fileStore';

/** The usage records of one period: `usage/<YYYY-MM>.jsonl`, one record a line. */
export function loadUsage(store: FileStore, period: BillingPeriod): UsageRecord[] {
  const name = `usage/${period.label}.jsonl`;
  return store.readJsonLines(name).map((r, i) => {
    if (!isPlainObject(r) || typeof r.subscription !== 'string' || typeof r.metric !== 'string') {
      throw new DataError(`${name}:${i + 1}`, 'needs subscription and metric');
    }
    if (typeof r.quantity !== 'number' || !Number.isFinite(r.quantity) || r.quantity < 0) {
      throw new DataError(`${name}:${i + 1}`, 'quantity must be a non-negative number');
    }
    if (!isIsoDate(r.day)) throw new DataError(`${name}:${i + 1}`, 'day must be YYYY-MM-DD');
    return {
      id: typeof r.id === 'string' ? r.id : `${name}:${i + 1}`,
      subscription: r.subscription,
      metric: r.metric,
      quantity: r.quantity,
      day: r.day,
    };
  });
}
