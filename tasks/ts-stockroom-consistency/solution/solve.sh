#!/bin/bash
# Oracle. Four defects break README.md's consistency rules:
# 1. KeyedLock chains each task on the previous one's promise with `then(() => task())`, so
#    a task queued behind one that failed (refused, or a store error) never runs and rejects
#    with that failure (the import's line 7 refused with line 6's message).
# 2. The cache was told of a write only through the event bus, whose delivery waits for a
#    later turn of the event loop: a read right after a write resolved still found the old
#    record. The record repository now invalidates the SKU as soon as its save succeeded,
#    before the write resolves; that also covers a transfer whose second save failed (the
#    first one did happen, and no movement is published for it).
# 3. A load in flight when the SKU was invalidated still stored its (older) record in the
#    cache, and reads started after the write joined it. Invalidating now also forgets the
#    in-flight load: only a load that is still the SKU's current one may fill the cache.
# 4. A failed load stayed in the in-flight map for ever: every later read shared it.
set -euo pipefail
cd /workspace
python3 - <<'PY'
def patch(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, (path, old)
    open(path, "w").write(s.replace(old, new))

patch("src/util/keyedLock.ts",
      "    const current = previous.then(() => task());\n",
      "    const current = previous.then(\n      () => task(),\n      () => task(),\n    );\n")

patch("src/cache/readThrough.ts",
      """    const load = this.loader(key).then((value) => {
      this.inflight.delete(key);
      this.values.set(key, value);
      return value;
    });
    this.inflight.set(key, load);
    return load;
  }

  invalidate(key: string): void {
    this.counters.add('cache.invalidated');
    this.values.delete(key);
  }
""",
      """    const load: Promise<V> = this.loader(key).then(
      (value) => {
        if (this.inflight.get(key) === load) {
          this.inflight.delete(key);
          this.values.set(key, value);
        }
        return value;
      },
      (err) => {
        if (this.inflight.get(key) === load) this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, load);
    return load;
  }

  /** Forgets the key's value and any load of it in flight (its result may be older than the change). */
  invalidate(key: string): void {
    this.counters.add('cache.invalidated');
    this.values.delete(key);
    this.inflight.delete(key);
  }
""")

patch("src/store/records.ts",
      """export class RecordRepository {
  constructor(private readonly store: StockStore) {}
""",
      """export class RecordRepository {
  constructor(
    private readonly store: StockStore,
    private readonly onSaved: (sku: string) => void = () => undefined,
  ) {}
""")
patch("src/store/records.ts",
      """  save(record: StockRecord): Promise<void> {
    return this.store.save(record);
  }""",
      """  async save(record: StockRecord): Promise<void> {
    await this.store.save(record);
    this.onSaved(record.sku);
  }""")

patch("src/app/container.ts",
      "import { invalidateOnMovement } from '../service/invalidation';\n", "")
patch("src/app/container.ts",
      """  const records = new RecordRepository(options.store);
  const cache = new ReadThroughCache<StockRecord>(
    async (sku) => (await options.store.load(sku)) ?? emptyRecord(sku),
    options.cacheCapacity,
  );
  invalidateOnMovement(bus, cache);
""",
      """  const cache = new ReadThroughCache<StockRecord>(
    async (sku) => (await options.store.load(sku)) ?? emptyRecord(sku),
    options.cacheCapacity,
  );
  const records = new RecordRepository(options.store, (sku) => cache.invalidate(sku));
""")
PY
rm src/service/invalidation.ts
