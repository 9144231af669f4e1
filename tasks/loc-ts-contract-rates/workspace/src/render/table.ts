import { padLeft, padRight } from '../util/strings';

/** Left-aligned first column, right-aligned others, two spaces between. */
export function table(rows: readonly string[][]): string[] {
  if (rows.length === 0) return [];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? padRight(cell, widths[i]) : padLeft(cell, widths[i])))
      .join('  ')
      .trimEnd(),
  );
}
