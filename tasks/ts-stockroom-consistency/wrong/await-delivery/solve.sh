#!/bin/bash
# Wrong: each write waits until the bus has delivered its movements (emit returns a promise
# that settles once every subscriber ran) before it resolves, so the cache is invalidated in
# time for a read right after a write. A transfer whose second save failed still publishes
# nothing, and the source's old record stays in the cache (README.md, "A failed save changes
# nothing visible").
set -euo pipefail
cd /workspace
python3 - <<'PY'
import re
def patch(path, old, new, count=1):
    s = open(path).read()
    assert s.count(old) == count, (path, old)
    open(path, "w").write(s.replace(old, new))

patch("src/events/bus.ts",
      """  emit(event: E): void {
    for (const handler of this.handlers.get(event.type) ?? []) {
      setImmediate(() => {
        this.delivered++;
        Promise.resolve()
          .then(() => handler(event))
          .catch((err) => log.error(`subscriber of ${event.type} failed: ${(err as Error).message}`));
      });
    }
  }""",
      """  emit(event: E): Promise<void> {
    const runs = (this.handlers.get(event.type) ?? []).map(
      (handler) =>
        new Promise<void>((resolve) => {
          setImmediate(() => {
            this.delivered++;
            Promise.resolve()
              .then(() => handler(event))
              .catch((err) => log.error(`subscriber of ${event.type} failed: ${(err as Error).message}`))
              .then(() => resolve());
          });
        }),
    );
    return Promise.all(runs).then(() => undefined);
  }""")
patch("src/service/adjustments.ts", "      this.ctx.bus.emit(", "      await this.ctx.bus.emit(")
patch("src/service/reservations.ts", "      this.ctx.bus.emit(", "      await this.ctx.bus.emit(", 2)
patch("src/service/transfers.ts", "      this.ctx.bus.emit(", "      await this.ctx.bus.emit(", 2)
PY
