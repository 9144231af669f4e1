import { InsufficientStockError, UnknownReservationError } from '../domain/errors';
import { Level, toLevel } from '../domain/level';
import { reservedUnits, withChanges } from '../domain/record';
import { normalizeSku } from '../domain/sku';
import { positiveQuantity } from '../domain/quantity';
import { orderId as checkOrderId } from './validation';
import { WriteContext } from './context';

/** Units held for orders: they stay on hand but are no longer available. */
export class Reservations {
  constructor(private readonly ctx: WriteContext) {}

  reserve(order: string, sku: string, quantity: number): Promise<Level> {
    const id = checkOrderId(order);
    const key = normalizeSku(sku);
    const units = positiveQuantity(quantity);
    return this.ctx.locks.run(key, async () => {
      const current = await this.ctx.records.fetch(key);
      const available = current.onHand - reservedUnits(current);
      if (units > available) throw new InsufficientStockError(key, units, available);
      const reservations = { ...current.reservations, [id]: (current.reservations[id] ?? 0) + units };
      const next = withChanges(current, { reservations });
      await this.ctx.records.save(next);
      this.ctx.bus.emit({ type: 'stock.reserved', sku: key, orderId: id, quantity: units, version: next.version });
      return toLevel(next);
    });
  }

  release(order: string, sku: string): Promise<Level> {
    const id = checkOrderId(order);
    const key = normalizeSku(sku);
    return this.ctx.locks.run(key, async () => {
      const current = await this.ctx.records.fetch(key);
      const held = current.reservations[id];
      if (held === undefined) throw new UnknownReservationError(id, key);
      const reservations = { ...current.reservations };
      delete reservations[id];
      const next = withChanges(current, { reservations });
      await this.ctx.records.save(next);
      this.ctx.bus.emit({ type: 'stock.released', sku: key, orderId: id, quantity: held, version: next.version });
      return toLevel(next);
    });
  }
}
