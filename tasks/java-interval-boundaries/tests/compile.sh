#!/bin/bash
# Compiles the agent's workspace, then the hidden tests, into /nab/verify (the verifier's
# own scratch space). Any compile error fails the task. No annotation processor runs
# (-proc:none) and the class path is explicit, so nothing in /workspace runs inside javac.
set -euo pipefail
mkdir -p /nab/verify/classes /nab/verify/test-classes
mapfile -t sources < <(find /workspace/src/main/java -name '*.java' | sort)
if [ "${#sources[@]}" -eq 0 ]; then
  echo "no Java sources under /workspace/src/main/java" >&2
  exit 1
fi
cd /nab/verify
javac -proc:none -implicit:none -nowarn -encoding UTF-8 -d /nab/verify/classes -cp /nab/verify/classes "${sources[@]}"
javac -proc:none -implicit:none -nowarn -encoding UTF-8 -d /nab/verify/test-classes \
  -cp /nab/verify/classes:/usr/share/java/junit4.jar \
  /nab/tests/*.java
