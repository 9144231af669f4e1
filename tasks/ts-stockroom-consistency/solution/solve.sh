#!/bin/bash
# Oracle. The cache learned of writes only through the event bus (a subscriber that
# invalidates the SKU of each movement), and the bus delivers on a later turn of the event
# loop: a read that starts right after a write resolved still finds the record from before it
# (the import's table of levels after, the dashboard's lag). And a movement is published only
# once the whole write succeeded: a transfer whose first save happened and whose second save
# failed publishes nothing, so the source's old record stays in the cache until restart
# (README.md, "A failed save changes nothing visible"). The record repository now invalidates
# the SKU as soon as its save succeeded, before the write goes on or resolves; the bus only
# feeds the audit trail.
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
