#!/bin/bash
# Wrong: the oracle's fixes, plus one lock around the whole Stockroom: its calls run one at a
# time, whatever the SKU, so no load can be in flight while a write happens. A slow or stuck
# load or save of one SKU then holds up every other SKU (README.md, "SKUs are independent").
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

s = open("src/app/container.ts").read()
head, tail = s.split("  return {\n", 1)
for name in ("level", "levels", "adjust", "reserve", "release", "transfer"):
    old = f"    {name}: ("
    i = tail.index(old)
    j = tail.index(" => ", i) + 4
    end = tail.index(",\n", j)
    tail = tail[:j] + "one.run('*', () => " + tail[j:end] + ")" + tail[end:]
s = head + "  const one = new KeyedLock();\n  return {\n" + tail
open("src/app/container.ts", "w").write(s)
PY
