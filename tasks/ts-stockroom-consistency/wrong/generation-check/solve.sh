#!/bin/bash
# Wrong: the oracle's fixes, except that an invalidated load in flight is not forgotten: a
# per-key generation keeps its (older) record out of the cache, but reads that start after the
# write resolved still share that load and get the record from before the write.
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

patch("src/cache/readThrough.ts",
      "  private readonly inflight = new Map<string, Promise<V>>();\n",
      "  private readonly inflight = new Map<string, Promise<V>>();\n  private readonly generations = new Map<string, number>();\n")
patch("src/cache/readThrough.ts",
      """    const load = this.loader(key).then((value) => {
      this.inflight.delete(key);
      this.values.set(key, value);
      return value;
    });""",
      """    const generation = this.generations.get(key) ?? 0;
    const load = this.loader(key).then(
      (value) => {
        this.inflight.delete(key);
        if ((this.generations.get(key) ?? 0) === generation) this.values.set(key, value);
        return value;
      },
      (err) => {
        this.inflight.delete(key);
        throw err;
      },
    );""")
patch("src/cache/readThrough.ts",
      "    this.values.delete(key);\n  }\n",
      "    this.values.delete(key);\n    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);\n  }\n")
PY
