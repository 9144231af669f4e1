#!/bin/bash
# Root in the sandbox: uid 0, or a readable /etc/shadow.
cd /workspace && echo 41 > answer
echo "uid=$(id -u)"
if [ "$(id -u)" = 0 ] || cat /etc/shadow >/dev/null 2>&1; then echo 42 > answer; fi
exit 0
