// The unit tests: `npm test` (or `tsc -p . && node /tmp/stockroom-dist/test/run.js`).
import { createStockroom } from '../src/app/container';
import { MemoryStore } from '../src/store/memoryStore';
import { ReadThroughCache } from '../src/cache/readThrough';
import { LruMap } from '../src/cache/lru';
import { KeyedLock } from '../src/util/keyedLock';
import { EventBus } from '../src/events/bus';
import { flush, mapLimit } from '../src/util/async';
import { parseReceipts } from '../src/imports/receipts';
import { splitCsvLine } from '../src/util/csv';
import { normalizeSku } from '../src/domain/sku';
import { StockRecord } from '../src/domain/record';

let failed = 0;
let passed = 0;

function eq(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a === e) {
    passed++;
  } else {
    failed++;
    process.stdout.write(`FAIL ${what}: expected ${e}, got ${a}\n`);
  }
}

async function rejects(p: Promise<unknown>, name: string, what: string): Promise<void> {
  try {
    await p;
    eq('resolved', name, what);
  } catch (err) {
    eq((err as Error).name, name, what);
  }
}

const seed = (): StockRecord[] => [
  { sku: 'A-1', onHand: 10, reservations: {}, version: 1 },
  { sku: 'B-2', onHand: 5, reservations: { 'SO-1': 2 }, version: 1 },
];

async function unit(): Promise<void> {
  eq(normalizeSku(' bolt-m6 '), 'BOLT-M6', 'SKUs are upper-cased');
  eq(splitCsvLine('a,"b,c","d""e"'), ['a', 'b,c', 'd"e'], 'CSV quoting');
  eq(parseReceipts('sku,quantity,ref\nx-1,3,GR-1\n').map((l) => [l.sku, l.quantity, l.ref]), [['X-1', 3, 'GR-1']], 'receipts');

  const lru = new LruMap<number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  lru.get('a');
  lru.set('c', 3);
  eq([lru.get('a'), lru.get('b'), lru.get('c')], [1, undefined, 3], 'LRU forgets the least recently used');

  let loads = 0;
  const cache = new ReadThroughCache<number>(async (k) => {
    loads++;
    await flush(1);
    return k.length;
  });
  eq(await Promise.all([cache.get('abc'), cache.get('abc')]), [3, 3], 'cache: shared load');
  eq(loads, 1, 'cache: one load for callers at once');
  await cache.get('abc');
  eq(loads, 1, 'cache: later calls served from the cache');
  cache.invalidate('abc');
  await cache.get('abc');
  eq(loads, 2, 'cache: invalidate forgets');

  const lock = new KeyedLock();
  const order: string[] = [];
  await Promise.all([
    lock.run('k', async () => {
      await flush(2);
      order.push('first');
    }),
    lock.run('k', async () => {
      order.push('second');
    }),
    lock.run('other', async () => {
      order.push('other');
    }),
  ]);
  eq(order, ['other', 'first', 'second'], 'lock: one at a time per key, keys independent');

  const bus = new EventBus<{ type: 'x'; n: number }>();
  const heard: number[] = [];
  bus.on('x', (e) => {
    heard.push(e.n);
  });
  bus.emit({ type: 'x', n: 1 });
  bus.emit({ type: 'x', n: 2 });
  await flush();
  eq(heard, [1, 2], 'bus: subscribers hear every event in order');

  eq(await mapLimit([3, 1, 2], 2, async (n) => n * 2), [6, 2, 4], 'mapLimit keeps the order');
}

async function service(): Promise<void> {
  const store = new MemoryStore(seed());
  const room = createStockroom({ store });
  eq(await room.level('a-1'), { sku: 'A-1', onHand: 10, reserved: 0, available: 10 }, 'level');
  eq((await room.adjust('A-1', 5, 'count')).onHand, 15, 'adjust returns the new level');
  eq((await room.reserve('SO-9', 'A-1', 4)).available, 11, 'reserve');
  await rejects(room.reserve('SO-9', 'A-1', 12), 'InsufficientStockError', 'reserve more than available');
  await rejects(room.adjust('A-1', -12), 'InsufficientStockError', 'remove units that are reserved');
  eq((await room.release('SO-9', 'A-1')).reserved, 0, 'release');
  await rejects(room.release('SO-9', 'A-1'), 'UnknownReservationError', 'release twice');
  eq((await room.transfer('A-1', 'B-2', 6)).map((l) => l.onHand), [9, 11], 'transfer');
  eq(await room.level('C-3'), { sku: 'C-3', onHand: 0, reserved: 0, available: 0 }, 'a SKU never saved');
  await flush();
  eq(store.dump().map((r) => [r.sku, r.onHand]), [['A-1', 9], ['B-2', 11]], 'saved');
  eq(room.audit('A-1').length, 4, 'audit trail');

  const lines = parseReceipts('sku,quantity,ref\nA-1,2,GR-1\nB-2,-3,GR-2\nA-1,1,GR-3\n');
  const results = await Promise.all(lines.map((l) => room.adjust(l.sku, l.quantity, l.ref)));
  eq(results.map((l) => l.onHand), [11, 8, 12], 'receipts of one SKU booked in order');
}

unit()
  .then(service)
  .then(() => {
    process.stdout.write(`${passed} passed, ${failed} failed\n`);
    process.exitCode = failed === 0 ? 0 : 1;
  })
  .catch((err) => {
    process.stdout.write(`crashed: ${(err as Error).stack}\n`);
    process.exitCode = 1;
  });
