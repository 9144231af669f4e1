/**
 * What the store keeps per SKU. Records are values: code that changes stock makes a new
 * record (with the next version) and never edits one in place.
 */
export interface StockRecord {
  sku: string;
  onHand: number;
  /** Units held per order id. */
  reservations: Record<string, number>;
  /** 0 for a SKU never saved; each save of the SKU increments it. */
  version: number;
}

export function emptyRecord(sku: string): StockRecord {
  return { sku, onHand: 0, reservations: {}, version: 0 };
}

export function reservedUnits(record: StockRecord): number {
  let total = 0;
  for (const qty of Object.values(record.reservations)) total += qty;
  return total;
}

export function withChanges(record: StockRecord, changes: Partial<Omit<StockRecord, 'sku' | 'version'>>): StockRecord {
  return {
    sku: record.sku,
    onHand: changes.onHand ?? record.onHand,
    reservations: { ...(changes.reservations ?? record.reservations) },
    version: record.version + 1,
  };
}
