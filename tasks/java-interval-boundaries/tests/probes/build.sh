#!/bin/bash
# Run as the sandbox user (a `user: sandbox` step): compiles the workspace's sources and the
# probe (package nabprobe) into /tmp/nab-build/classes in one javac run. A compile error
# fails the task (build_failed). No annotation processor runs (-proc:none) and the class
# path is explicit.
set -euo pipefail
OUT=/tmp/nab-build
rm -rf "$OUT" && mkdir -p "$OUT/classes"
mapfile -t sources < <(find /workspace/src/main/java -name '*.java' | sort)
if [ "${#sources[@]}" -eq 0 ]; then
  echo "no Java sources under /workspace/src/main/java" >&2
  exit 1
fi
JAVAC=(javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -proc:none -implicit:none -nowarn -encoding UTF-8)
"${JAVAC[@]}" -d "$OUT/classes" -cp "$OUT/classes" "${sources[@]}" /nab/probes/nabprobe/*.java
