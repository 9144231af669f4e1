#!/bin/bash
# Wrong: the oracle's lock and cache fixes, with the cache invalidated by movements delivered
# at once on the bus (as the code meant to). A transfer whose second save fails publishes no
# movement, although its first save happened: level() of the source keeps the record from
# before it, not what the store holds (README.md, "A failed save changes nothing visible").
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

patch("src/events/bus.ts",
      """      setImmediate(() => {
        this.delivered++;
        Promise.resolve()
          .then(() => handler(event))
          .catch((err) => log.error(`subscriber of ${event.type} failed: ${(err as Error).message}`));
      });""",
      """      this.delivered++;
      try {
        const done = handler(event);
        if (done) done.catch((err) => log.error(`subscriber of ${event.type} failed: ${(err as Error).message}`));
      } catch (err) {
        log.error(`subscriber of ${event.type} failed: ${(err as Error).message}`);
      }""")
PY
