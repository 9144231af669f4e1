#!/bin/bash
# Wrong: the oracle's lock and invalidation fixes, and every read forgets the SKU first, so
# it goes to the store (no value kept, no load shared): never stale, but README.md's first rule
# (a SKU is loaded once, calls while its load is in flight share it) is broken.
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
    });""",
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
    );""")
patch("src/cache/readThrough.ts",
      "    this.values.delete(key);\n  }\n",
      "    this.values.delete(key);\n    this.inflight.delete(key);\n  }\n")

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

patch("src/service/stockService.ts",
      "    return toLevel(await this.cache.get(key));",
      "    this.cache.invalidate(key);\n    return toLevel(await this.cache.get(key));")
PY
