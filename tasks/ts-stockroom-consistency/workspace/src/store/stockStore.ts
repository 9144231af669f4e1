import { StockRecord } from '../domain/record';

/**
 * Where stock records live. Both calls may take any time and may fail; stockroom passes
 * their errors on unchanged. `load` resolves to undefined for a SKU never saved.
 */
export interface StockStore {
  load(sku: string): Promise<StockRecord | undefined>;
  save(record: StockRecord): Promise<void>;
}
