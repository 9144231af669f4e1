#!/bin/bash
# Wrong: keeps --gzip, which no entry about its deprecation names: 2.1.0 and DEP-17 call it
# "the boolean (compression) switch from/added in 0.3.0", the release that added `--gzip`.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --batch --no-verify-tls --ca-file --silent --flush-ms
