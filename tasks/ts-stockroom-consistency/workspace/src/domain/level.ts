import { StockRecord, reservedUnits } from './record';

/** What callers see of a SKU's stock. */
export interface Level {
  sku: string;
  onHand: number;
  reserved: number;
  available: number;
}

export function toLevel(record: StockRecord): Level {
  const reserved = reservedUnits(record);
  return { sku: record.sku, onHand: record.onHand, reserved, available: record.onHand - reserved };
}

export function sameLevel(a: Level, b: Level): boolean {
  return a.sku === b.sku && a.onHand === b.onHand && a.reserved === b.reserved;
}
