#!/bin/bash
# Wrong: removes the right options but misses 2.9.0's withdrawal of the 2.5.0 deprecation:
# --json still warns.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms
