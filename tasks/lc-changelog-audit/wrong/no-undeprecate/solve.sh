#!/bin/bash
# Wrong: removes the right options but misses 2.9.0's withdrawal of DEP-24 (the `--json`
# shorthand, registered in 2.5.0): --json still warns.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms
