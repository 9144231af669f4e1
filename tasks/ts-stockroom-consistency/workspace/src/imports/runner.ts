import { Stockroom } from '../app/container';
import { Level } from '../domain/level';
import { mapLimit } from '../util/async';
import { ReceiptLine } from './receipts';

export type LineOutcome =
  | { line: ReceiptLine; ok: true; level: Level }
  | { line: ReceiptLine; ok: false; error: string };

/**
 * Books every line of a goods-in file as an adjustment, `concurrency` lines at a time (the
 * lines of one SKU are still booked in file order: the stockroom serializes writes per SKU).
 */
export function bookReceipts(room: Stockroom, lines: readonly ReceiptLine[], concurrency: number): Promise<LineOutcome[]> {
  return mapLimit(lines, concurrency, async (line): Promise<LineOutcome> => {
    try {
      const level = await room.adjust(line.sku, line.quantity, `receipt ${line.ref}`);
      return { line, ok: true, level };
    } catch (err) {
      return { line, ok: false, error: (err as Error).message };
    }
  });
}
