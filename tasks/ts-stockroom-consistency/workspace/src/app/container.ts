import { ReadThroughCache } from '../cache/readThrough';
import { Level } from '../domain/level';
import { Movement } from '../domain/movement';
import { StockRecord, emptyRecord } from '../domain/record';
import { AuditTrail } from '../events/audit';
import { EventBus } from '../events/bus';
import { Adjustments } from '../service/adjustments';
import { invalidateOnMovement } from '../service/invalidation';
import { Reservations } from '../service/reservations';
import { StockReader } from '../service/stockService';
import { Transfers } from '../service/transfers';
import { RecordRepository } from '../store/records';
import { StockStore } from '../store/stockStore';
import { Clock, systemClock } from '../util/clock';
import { KeyedLock } from '../util/keyedLock';

export interface StockroomOptions {
  store: StockStore;
  /** How many SKUs' records the read cache keeps (default 10,000). */
  cacheCapacity?: number;
  clock?: Clock;
}

/** The public face of the library (README.md, "API"). */
export interface Stockroom {
  level(sku: string): Promise<Level>;
  levels(skus: readonly string[]): Promise<Level[]>;
  adjust(sku: string, delta: number, reason?: string): Promise<Level>;
  reserve(orderId: string, sku: string, quantity: number): Promise<Level>;
  release(orderId: string, sku: string): Promise<Level>;
  transfer(fromSku: string, toSku: string, quantity: number): Promise<[Level, Level]>;
  audit(sku?: string): string[];
  stats(): Record<string, number>;
}

export function createStockroom(options: StockroomOptions): Stockroom {
  const bus = new EventBus<Movement>();
  const records = new RecordRepository(options.store);
  const cache = new ReadThroughCache<StockRecord>(
    async (sku) => (await options.store.load(sku)) ?? emptyRecord(sku),
    options.cacheCapacity,
  );
  invalidateOnMovement(bus, cache);
  const trail = new AuditTrail(options.clock ?? systemClock);
  trail.attach(bus);

  const ctx = { records, locks: new KeyedLock(), bus };
  const reader = new StockReader(cache);
  const adjustments = new Adjustments(ctx);
  const reservations = new Reservations(ctx);
  const transfers = new Transfers(ctx);

  return {
    level: (sku) => reader.level(sku),
    levels: (skus) => reader.levels(skus),
    adjust: (sku, delta, reason) => adjustments.adjust(sku, delta, reason),
    reserve: (order, sku, quantity) => reservations.reserve(order, sku, quantity),
    release: (order, sku) => reservations.release(order, sku),
    transfer: (from, to, quantity) => transfers.transfer(from, to, quantity),
    audit: (sku) => trail.lines(sku),
    stats: () => cache.counters.snapshot(),
  };
}
