import { StockRecord } from '../domain/record';
import { copyRecord } from './copy';
import { StockStore } from './stockStore';

/** Keeps records in a map; every call answers on a later turn of the event loop, as a real store would. */
export class MemoryStore implements StockStore {
  private readonly records = new Map<string, StockRecord>();
  loads = 0;
  saves = 0;

  constructor(initial: readonly StockRecord[] = []) {
    for (const r of initial) this.records.set(r.sku, copyRecord(r));
  }

  load(sku: string): Promise<StockRecord | undefined> {
    this.loads++;
    const found = this.records.get(sku);
    const snapshot = found ? copyRecord(found) : undefined;
    return new Promise((resolve) => setImmediate(() => resolve(snapshot)));
  }

  save(record: StockRecord): Promise<void> {
    this.saves++;
    const copy = copyRecord(record);
    return new Promise((resolve) =>
      setImmediate(() => {
        this.records.set(copy.sku, copy);
        resolve();
      }),
    );
  }

  /** Every record, by SKU (for tests and the CLI). */
  dump(): StockRecord[] {
    return [...this.records.values()].map(copyRecord).sort((a, b) => (a.sku < b.sku ? -1 : 1));
  }
}
