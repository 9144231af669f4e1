import { StockRecord, emptyRecord } from '../domain/record';
import { StockStore } from './stockStore';

/** The store as the write paths use it: a missing SKU reads as an empty record. */
export class RecordRepository {
  constructor(private readonly store: StockStore) {}

  async fetch(sku: string): Promise<StockRecord> {
    return (await this.store.load(sku)) ?? emptyRecord(sku);
  }

  save(record: StockRecord): Promise<void> {
    return this.store.save(record);
  }
}
