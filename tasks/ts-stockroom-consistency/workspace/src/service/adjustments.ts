import { InsufficientStockError } from '../domain/errors';
import { Level, toLevel } from '../domain/level';
import { reservedUnits, withChanges } from '../domain/record';
import { normalizeSku } from '../domain/sku';
import { parseQuantity } from '../domain/quantity';
import { WriteContext } from './context';

/** Changes of the units on hand: receipts, counts, write-offs. */
export class Adjustments {
  constructor(private readonly ctx: WriteContext) {}

  adjust(sku: string, delta: number, reason = 'adjustment'): Promise<Level> {
    const key = normalizeSku(sku);
    const units = parseQuantity(delta, 'delta');
    return this.ctx.locks.run(key, async () => {
      const current = await this.ctx.records.fetch(key);
      const onHand = current.onHand + units;
      const reserved = reservedUnits(current);
      if (onHand < reserved) throw new InsufficientStockError(key, -units, current.onHand - reserved);
      const next = withChanges(current, { onHand });
      await this.ctx.records.save(next);
      this.ctx.bus.emit({ type: 'stock.adjusted', sku: key, delta: units, reason, version: next.version });
      return toLevel(next);
    });
  }
}
