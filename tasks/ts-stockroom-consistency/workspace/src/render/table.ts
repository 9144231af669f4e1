import { padLeft, padRight } from '../util/strings';

/** A plain-text table; `align` gives 'l' or 'r' per column. */
export function table(header: readonly string[], rows: readonly string[][], align: readonly ('l' | 'r')[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (align[i] === 'r' ? padLeft(c, widths[i]) : padRight(c, widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
