#!/bin/bash
# Run as the sandbox user (a `user: sandbox` step): compiles the workspace's CLI (and what it
# uses, through -sourcepath) into /tmp/nab-build/classes. A compile error fails the task
# (build_failed). No annotation processor runs (-proc:none).
set -euo pipefail
OUT=/tmp/nab-build/classes
rm -rf /tmp/nab-build && mkdir -p "$OUT"
exec javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -proc:none -cp "$OUT" -d "$OUT" \
  -sourcepath /workspace/src/main/java /workspace/src/main/java/org/textstats/Cli.java
