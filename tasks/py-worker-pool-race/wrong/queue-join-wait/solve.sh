#!/bin/bash
# Wrong: makes wait() drain the queue first (queue.join, each job marked done after its store
# and callbacks), which does wait for every job, but join() has no timeout: wait(timeout)
# blocks as long as any job runs and no longer honours its documented timeout.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "jobq/pool.py"
s = open(p).read()
old_wait = ("        with self._cond:\n"
            "            return self._cond.wait_for(lambda: self._pending == 0, timeout)\n")
new_wait = ("        self._queue.join()\n"
            "        with self._cond:\n"
            "            return self._cond.wait_for(lambda: self._pending == 0, timeout)\n")
old_worker = ("            outcome = self._execute(job)\n"
              "            self._finish()\n"
              "            self.store.put(job.id, outcome)\n"
              "            self._run_callbacks(job, outcome)\n")
new_worker = ("            outcome = self._execute(job)\n"
              "            self._finish()\n"
              "            self.store.put(job.id, outcome)\n"
              "            self._run_callbacks(job, outcome)\n"
              "            self._queue.task_done()\n")
assert s.count(old_wait) == 1 and s.count(old_worker) == 1
open(p, "w").write(s.replace(old_wait, new_wait).replace(old_worker, new_worker))
PY
