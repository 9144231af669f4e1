#!/bin/bash
# Wrong: stores the outcome before finishing, but still runs the callbacks after wait() is woken.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "jobq/pool.py"
s = open(p).read()
old = ("            self._finish()\n"
       "            self.store.put(job.id, outcome)\n")
new = ("            self.store.put(job.id, outcome)\n"
       "            self._finish()\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
