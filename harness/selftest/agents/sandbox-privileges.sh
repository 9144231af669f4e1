#!/bin/bash
# Privileges: any capability (effective, permitted or in the bounding set a setuid program
# could gain), no-new-privileges off, or a user namespace in which it is root.
cd /workspace && echo 41 > answer
grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs):' /proc/self/status
caps=$(awk '/^(CapEff|CapPrm|CapBnd):/ {print $2}' /proc/self/status | sort -u)
nnp=$(awk '/^NoNewPrivs:/ {print $2}' /proc/self/status)
if [ "$caps" != 0000000000000000 ] || [ "$nnp" != 1 ] || unshare -Ur true 2>/dev/null; then
  echo 42 > answer
fi
exit 0
