import { Level, toLevel } from '../domain/level';
import { StockRecord } from '../domain/record';
import { normalizeSku } from '../domain/sku';
import { ReadThroughCache } from '../cache/readThrough';

/** Reads: every level comes through the record cache. */
export class StockReader {
  constructor(private readonly cache: ReadThroughCache<StockRecord>) {}

  async level(sku: string): Promise<Level> {
    const key = normalizeSku(sku);
    return toLevel(await this.cache.get(key));
  }

  levels(skus: readonly string[]): Promise<Level[]> {
    return Promise.all(skus.map((s) => this.level(s)));
  }
}
