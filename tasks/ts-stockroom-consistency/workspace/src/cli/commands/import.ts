import * as fs from 'fs';
import { Stockroom } from '../../app/container';
import { parseReceipts } from '../../imports/receipts';
import { receiptReport } from '../../imports/report';
import { bookReceipts } from '../../imports/runner';
import { levelsText } from '../../render/levels';

/** Books a goods-in CSV (sku,quantity,ref) and prints each line's result and the levels before and after. */
export async function importCommand(room: Stockroom, args: string[], concurrency: number): Promise<string> {
  if (args.length !== 1) throw new Error('usage: stockroom import FILE.csv [--concurrency N]');
  const lines = parseReceipts(fs.readFileSync(args[0], 'utf8'));
  const skus = [...new Set(lines.map((l) => l.sku))].sort();
  const before = await room.levels(skus);
  const outcomes = await bookReceipts(room, lines, concurrency);
  const after = await room.levels(skus);
  return ['levels before the import:', levelsText(before), '', receiptReport(outcomes, after)].join('\n');
}
