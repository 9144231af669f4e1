#!/bin/bash
# Run as the sandbox user (a `user: sandbox` step): compiles the workspace's sources and the
# probe (package nabprobe) into /tmp/nab-build/classes in one javac run. A compile error
# fails the task (build_failed). No annotation processor runs (-proc:none) and the class
# path is explicit.
set -euo pipefail
OUT=/tmp/nab-build
rm -rf "$OUT" && mkdir -p "$OUT/classes"
mapfile -t SOURCES < <(find /workspace/src/main/java/com/acme -type f -name '*.java' | sort)
if [ "${#SOURCES[@]}" -eq 0 ]; then
  echo "no Java sources under /workspace/src/main/java/com/acme" >&2
  exit 1
fi
JAVAC=(javac -J-Xmx384m -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -proc:none -implicit:none -nowarn -encoding UTF-8)
"${JAVAC[@]}" -d "$OUT/classes" -cp "$OUT/classes" "${SOURCES[@]}" /nab/probes/nabprobe/*.java
