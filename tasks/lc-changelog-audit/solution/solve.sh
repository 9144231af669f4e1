#!/bin/bash
# Oracle: per CHANGELOG.md, 3.0 removes --gzip, --batch, --no-verify-tls, --ca-file and
# --silent; --flush-ms (removal planned for 4.0) and --retry (postponed to 4.0) stay
# deprecated; --json was un-deprecated in 2.9 and must not warn.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent
javac -d /tmp/classes $(find src/main/java -name '*.java')
java -cp /tmp/classes dev.logship.cli.Main --version
