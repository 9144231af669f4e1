#!/bin/bash
# Compile the workspace's sources, then the hidden tests against them (a compile failure
# fails), then run them. No annotation processor runs in javac (-proc:none) and every class
# path is explicit; the hidden runner and JUnit come first on the class path, so no
# workspace class can stand in for them.
set -euo pipefail
OUT=/nab/verify
CLASSES="$OUT/classes"
TEST_CLASSES="$OUT/test-classes"
CP=/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
JAVAC=(javac -J-Xmx384m -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -proc:none -implicit:none -nowarn -encoding UTF-8)
rm -rf "$CLASSES" "$TEST_CLASSES" && mkdir -p "$CLASSES" "$TEST_CLASSES"
cd "$OUT"
mapfile -t SOURCES < <(find /workspace/src/main/java/com/acme -type f -name '*.java' | sort)
"${JAVAC[@]}" -d "$CLASSES" -cp "$CLASSES" "${SOURCES[@]}"
"${JAVAC[@]}" -d "$TEST_CLASSES" -cp "$CP:$CLASSES" /nab/tests/*.java
# Every top-level class in /nab/tests other than the runner is a test class (the harness
# adds one per trial, see tasks/README.md, "The canary").
mapfile -t TESTS < <(find /nab/tests -maxdepth 1 -name '*.java' ! -name HiddenTestRunner.java -printf '%f\n' | sed 's/\.java$//' | sort)
exec java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$TEST_CLASSES:$CP:$CLASSES" HiddenTestRunner "$OUT/junit.xml" "${TESTS[@]}"
