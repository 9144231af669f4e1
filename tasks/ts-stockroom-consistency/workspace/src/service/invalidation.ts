import { StockRecord } from '../domain/record';
import { Movement, MOVEMENT_TYPES } from '../domain/movement';
import { EventBus } from '../events/bus';
import { ReadThroughCache } from '../cache/readThrough';

/** Drops a SKU's cached record whenever a movement of it is published. */
export function invalidateOnMovement(bus: EventBus<Movement>, cache: ReadThroughCache<StockRecord>): void {
  for (const type of MOVEMENT_TYPES) {
    bus.on(type, (movement) => cache.invalidate(movement.sku));
  }
}
