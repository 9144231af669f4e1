#!/bin/bash
# Wrong: every read forgets the SKU first, so it goes to the store (no value kept, no load
# shared): never stale, but README.md's first rule (a SKU is loaded once, calls while its
# load is in flight share it) is broken.
set -euo pipefail
cd /workspace
python3 - <<'PY'
def patch(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, (path, old)
    open(path, "w").write(s.replace(old, new))

patch("src/service/stockService.ts",
      "    return toLevel(await this.cache.get(key));",
      "    this.cache.invalidate(key);\n    return toLevel(await this.cache.get(key));")
PY
