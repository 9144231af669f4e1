#!/bin/bash
# Wrong: papers over the race with a short sleep after the pending count reaches zero.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "jobq/pool.py"
s = open(p).read()
old = ("        with self._cond:\n"
       "            return self._cond.wait_for(lambda: self._pending == 0, timeout)\n")
new = ("        with self._cond:\n"
       "            done = self._cond.wait_for(lambda: self._pending == 0, timeout)\n"
       "        import time\n"
       "        time.sleep(0.05)  # let workers finish their bookkeeping\n"
       "        return done\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
