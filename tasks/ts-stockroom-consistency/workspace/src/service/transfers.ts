import { InsufficientStockError, InvalidInputError } from '../domain/errors';
import { Level, toLevel } from '../domain/level';
import { reservedUnits, withChanges } from '../domain/record';
import { normalizeSku } from '../domain/sku';
import { positiveQuantity } from '../domain/quantity';
import { WriteContext } from './context';

/** Moves available units from one SKU to another (relabelling, repacks). */
export class Transfers {
  constructor(private readonly ctx: WriteContext) {}

  transfer(fromSku: string, toSku: string, quantity: number): Promise<[Level, Level]> {
    const from = normalizeSku(fromSku);
    const to = normalizeSku(toSku);
    const units = positiveQuantity(quantity);
    if (from === to) throw new InvalidInputError('a transfer needs two different SKUs');
    return this.ctx.locks.runAll([from, to], async () => {
      const source = await this.ctx.records.fetch(from);
      const target = await this.ctx.records.fetch(to);
      const available = source.onHand - reservedUnits(source);
      if (units > available) throw new InsufficientStockError(from, units, available);
      const nextSource = withChanges(source, { onHand: source.onHand - units });
      const nextTarget = withChanges(target, { onHand: target.onHand + units });
      await this.ctx.records.save(nextSource);
      await this.ctx.records.save(nextTarget);
      this.ctx.bus.emit({ type: 'stock.transferred', sku: from, counterpart: to, delta: -units, version: nextSource.version });
      this.ctx.bus.emit({ type: 'stock.transferred', sku: to, counterpart: from, delta: units, version: nextTarget.version });
      return [toLevel(nextSource), toLevel(nextTarget)];
    });
  }
}
