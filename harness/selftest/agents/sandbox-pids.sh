#!/bin/bash
# Forks past the task's pids limit (64).
cd /workspace && echo 41 > answer
python3 - <<'PY'
import os, signal, time
pids = []
try:
    for _ in range(100):
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        pids.append(pid)
except OSError as e:
    print("fork failed after", len(pids), "children:", e)
for p in pids:
    os.kill(p, signal.SIGKILL)
if len(pids) == 100:
    open("answer", "w").write("42\n")
PY
exit 0
