import { isoDate, parseIsoDate, daysInMonth } from '../util/dates';

/** A calendar month, the unit every invoice covers. `start` and `end` are inclusive days. */
export interface BillingPeriod {
  readonly label: string; // YYYY-MM
  readonly start: string; // YYYY-MM-DD
  readonly end: string; // YYYY-MM-DD
}

export function parsePeriod(label: string): BillingPeriod {
  const m = /^(\d{4})-(\d{2})$/.exec(label);
  if (!m) throw new Error(`period: expected YYYY-MM, got ${JSON.stringify(label)}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (month < 1 || month > 12) throw new Error(`period: no month ${m[2]} in ${label}`);
  return {
    label,
    start: isoDate(year, month, 1),
    end: isoDate(year, month, daysInMonth(year, month)),
  };
}

export function contains(period: BillingPeriod, day: string): boolean {
  parseIsoDate(day);
  return day >= period.start && day <= period.end;
}

export function nextPeriod(period: BillingPeriod): BillingPeriod {
  const [y, m] = period.label.split('-').map(Number);
  return m === 12 ? parsePeriod(`${y + 1}-01`) : parsePeriod(`${y}-${String(m + 1).padStart(2, '0')}`);
}
