#!/bin/bash
# Oracle: per CHANGELOG.md, 3.0 removes --gzip (2.1: "the next major release"), --batch and
# --no-verify-tls (2.2), --ca-file (2.4), --silent (2.7) and --flush-ms (planned for 4.0 in
# 2.3, brought forward to 3.0 by 2.8.2's "the option deprecated in 2.3.0"); --retry stays
# deprecated (2.8.0 postponed "the spelling renamed in 2.6.0" to 4.0); --json was
# un-deprecated (2.9.0 withdrew "the deprecation made in 2.5.0") and must not warn.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms
javac -d /tmp/classes $(find src/main/java -name '*.java')
java -cp /tmp/classes dev.logship.cli.Main --version
