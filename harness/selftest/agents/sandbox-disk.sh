#!/bin/bash
# Writes 100 MiB to the workspace against the task's 64 MiB disk quota.
cd /workspace && echo 41 > answer
if dd if=/dev/zero of=fill bs=1M count=100 2>/dev/null; then
  echo "wrote 100 MiB"
  echo 42 > answer
fi
exit 0
