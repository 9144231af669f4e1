#!/bin/bash
# Compile the workspace's sources with the hidden tests (a compile failure fails), then run them.
set -euo pipefail
OUT=/nab/verify
CLASSES="$OUT/classes"
CP=/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
rm -rf "$CLASSES" && mkdir -p "$CLASSES"
mapfile -t SOURCES < <(find /workspace/src/main/java/com/acme -type f -name '*.java' | sort)
javac -J-Xmx384m -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -nowarn -encoding UTF-8 -d "$CLASSES" -cp "$CP" "${SOURCES[@]}" /nab/tests/*.java
# JUnit's jars come first so a workspace class cannot shadow them.
exec java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$CP:$CLASSES" HiddenTestRunner "$OUT/junit.xml" ParcelLifecycleCheck
