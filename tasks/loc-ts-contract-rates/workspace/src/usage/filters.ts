import { UsageRecord } from '../domain/usage';
import { BillingPeriod, contains } from '../domain/period';

export function inPeriod(records: readonly UsageRecord[], period: BillingPeriod): UsageRecord[] {
  return records.filter((r) => contains(period, r.day));
}

/** Meters retry, so a record may arrive more than once: keep the first of each id. */
export function dedupe(records: readonly UsageRecord[]): UsageRecord[] {
  const seen = new Set<string>();
  const out: UsageRecord[] = [];
  for (const r of records) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    out.push(r);
  }
  return out;
}
