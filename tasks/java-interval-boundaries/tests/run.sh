#!/bin/bash
# Runs every top-level class in /nab/tests other than the runner as a JUnit 4 test class (the
# harness adds one per trial, see tasks/README.md, "The canary"). The hidden runner and JUnit
# come first on the class path, ahead of the workspace's classes.
set -euo pipefail
mapfile -t TESTS < <(find /nab/tests -maxdepth 1 -name '*.java' ! -name XmlRunner.java -printf '%f\n' | sed 's/\.java$//' | sort)
exec java -Xss4m -cp /nab/verify/test-classes:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar:/nab/verify/classes \
  XmlRunner /nab/verify/junit.xml "${TESTS[@]}"
