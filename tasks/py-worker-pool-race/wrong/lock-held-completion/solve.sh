#!/bin/bash
# Wrong: does the whole completion under the pool lock, so a callback that submits a job deadlocks.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "jobq/pool.py"
s = open(p).read()
old = ("            outcome = self._execute(job)\n"
       "            self._finish()\n"
       "            self.store.put(job.id, outcome)\n"
       "            self._run_callbacks(job, outcome)\n")
new = ("            outcome = self._execute(job)\n"
       "            with self._cond:\n"
       "                self.store.put(job.id, outcome)\n"
       "                self._run_callbacks(job, outcome)\n"
       "                self._pending -= 1\n"
       "                if self._pending == 0:\n"
       "                    self._cond.notify_all()\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
