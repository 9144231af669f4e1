#!/bin/bash
# Wrong: the write puts its new record into the cache (write-through, instead of the bus
# subscriber) before the store has saved it: when the save fails, level() returns the unsaved
# record (README.md, "A failed save changes nothing visible").
set -euo pipefail
cd /workspace
python3 - <<'PY'
def patch(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, (path, old)
    open(path, "w").write(s.replace(old, new))

patch("src/store/records.ts",
      """export class RecordRepository {
  constructor(private readonly store: StockStore) {}
""",
      """export class RecordRepository {
  constructor(
    private readonly store: StockStore,
    private readonly onSaved: (sku: string, record: StockRecord) => void = () => undefined,
  ) {}
""")
patch("src/store/records.ts",
      """  save(record: StockRecord): Promise<void> {
    return this.store.save(record);
  }""",
      """  async save(record: StockRecord): Promise<void> {
    this.onSaved(record.sku, record);
    await this.store.save(record);
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
  const records = new RecordRepository(options.store, (sku, record) => cache.prime(sku, record));
""")

patch("src/cache/readThrough.ts",
      "  clear(): void {\n",
      "  prime(key: string, value: V): void {\n    this.inflight.delete(key);\n    this.values.set(key, value);\n  }\n\n  clear(): void {\n")
PY
