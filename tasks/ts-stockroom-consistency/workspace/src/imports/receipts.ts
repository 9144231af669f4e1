import { InvalidInputError } from '../domain/errors';
import { parseQuantity } from '../domain/quantity';
import { normalizeSku } from '../domain/sku';
import { csvLines, splitCsvLine } from '../util/csv';

/** One line of a goods-in file: units received (positive) or written off (negative). */
export interface ReceiptLine {
  line: number;
  sku: string;
  quantity: number;
  ref: string;
}

const HEADER = ['sku', 'quantity', 'ref'];

export function parseReceipts(text: string): ReceiptLine[] {
  const rows = csvLines(text).map(splitCsvLine);
  if (rows.length === 0) return [];
  const header = rows[0].map((h) => h.trim().toLowerCase());
  if (HEADER.some((h, i) => header[i] !== h)) {
    throw new InvalidInputError(`a receipts file starts with the header ${HEADER.join(',')}`);
  }
  return rows.slice(1).map((cells, i) => {
    if (cells.length < 3) throw new InvalidInputError(`line ${i + 2}: expected sku,quantity,ref`);
    return {
      line: i + 1,
      sku: normalizeSku(cells[0]),
      quantity: parseQuantity(cells[1]),
      ref: cells[2].trim() || `line-${i + 1}`,
    };
  });
}
