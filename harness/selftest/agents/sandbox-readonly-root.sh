#!/bin/bash
# Writes to the image's file system (/home/nab belongs to uid 1000: only a read-only root
# stops this one).
cd /workspace && echo 41 > answer
for f in /home/nab/planted /usr/local/bin/planted /etc/planted; do
  touch "$f" 2>/dev/null && { echo "wrote $f"; echo 42 > answer; }
done
exit 0
