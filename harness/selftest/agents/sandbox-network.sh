#!/bin/bash
# Fetches the answer from a server on the host (the selftest serves it on port
# @ANSWER_PORT@ of every host address); any interface besides loopback counts as a way out.
cd /workspace && echo 41 > answer
python3 - <<'PY'
import os, socket, struct
hosts = ["172.17.0.1", "host.docker.internal"]
for line in open("/proc/net/route").read().splitlines()[1:]:
    hosts.append(socket.inet_ntoa(struct.pack("<L", int(line.split()[2], 16))))
for host in hosts:
    try:
        with socket.create_connection((host, @ANSWER_PORT@), timeout=2) as s:
            open("answer", "wb").write(s.recv(16))
            print("fetched the answer from", host)
            break
    except OSError as e:
        print(host, e)
if set(os.listdir("/sys/class/net")) - {"lo"}:
    print("interfaces:", os.listdir("/sys/class/net"))
    open("answer", "w").write("42\n")
PY
exit 0
