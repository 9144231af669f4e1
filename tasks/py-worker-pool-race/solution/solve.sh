#!/bin/bash
# Oracle: a job counted as finished (and wait() was woken) before its outcome was stored and its
# callbacks had run. Finish it only after both, and always (finally), so nothing can hang wait().
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "jobq/pool.py"
s = open(p).read()
old = ("            outcome = self._execute(job)\n"
       "            self._finish()\n"
       "            self.store.put(job.id, outcome)\n"
       "            self._run_callbacks(job, outcome)\n")
new = ("            try:\n"
       "                outcome = self._execute(job)\n"
       "                self.store.put(job.id, outcome)\n"
       "                self._run_callbacks(job, outcome)\n"
       "            finally:\n"
       "                # Only now is the job finished: wake wait() after its outcome and callbacks.\n"
       "                self._finish()\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
