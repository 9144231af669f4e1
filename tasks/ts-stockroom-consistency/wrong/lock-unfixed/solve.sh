#!/bin/bash
# Wrong: the oracle's cache and invalidation fixes, but the per-SKU lock still chains each
# task on the previous one's success: a write queued behind a failed or refused write of the
# same SKU is never attempted and rejects with that write's error (the import's line 7).
set -euo pipefail
cd /workspace
python3 - <<'PY'
def patch(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, (path, old)
    open(path, "w").write(s.replace(old, new))

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
PY
