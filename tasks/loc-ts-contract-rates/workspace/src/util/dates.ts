const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function parseIsoDate(s: string): { year: number; month: number; day: number } {
  const m = ISO.exec(s);
  if (!m) throw new Error(`date: expected YYYY-MM-DD, got ${JSON.stringify(s)}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new Error(`date: ${s} is not a calendar day`);
  }
  return { year, month, day };
}

export function isIsoDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  try {
    parseIsoDate(s);
    return true;
  } catch {
    return false;
  }
}

/** The day `n` days after `s` (n may be negative). */
export function addDays(s: string, n: number): string {
  const { year, month, day } = parseIsoDate(s);
  const d = new Date(Date.UTC(year, month - 1, day + n));
  return isoDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** The given day of the month after `s`'s month, clamped to that month's length. */
export function dayOfNextMonth(s: string, dayOfMonth: number): string {
  const { year, month } = parseIsoDate(s);
  const y = month === 12 ? year + 1 : year;
  const m = month === 12 ? 1 : month + 1;
  return isoDate(y, m, Math.min(dayOfMonth, daysInMonth(y, m)));
}
