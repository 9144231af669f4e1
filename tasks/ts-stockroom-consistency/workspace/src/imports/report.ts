import { Level } from '../domain/level';
import { table } from '../render/table';
import { LineOutcome } from './runner';

export function receiptReport(outcomes: readonly LineOutcome[], after: readonly Level[]): string {
  const rows = outcomes.map((o) => [
    String(o.line.line),
    o.line.sku,
    (o.line.quantity >= 0 ? '+' : '') + String(o.line.quantity),
    o.line.ref,
    o.ok ? `booked, on hand ${o.level.onHand}` : `refused: ${o.error}`,
  ]);
  const booked = outcomes.filter((o) => o.ok).length;
  return [
    table(['line', 'sku', 'qty', 'ref', 'result'], rows, ['r', 'l', 'r', 'l', 'l']),
    '',
    `${booked} of ${outcomes.length} lines booked`,
    '',
    'levels after the import:',
    table(
      ['sku', 'on hand', 'reserved', 'available'],
      after.map((l) => [l.sku, String(l.onHand), String(l.reserved), String(l.available)]),
      ['l', 'r', 'r', 'r'],
    ),
  ].join('\n');
}
