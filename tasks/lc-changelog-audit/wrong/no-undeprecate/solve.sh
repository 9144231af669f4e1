#!/bin/bash
# Wrong: removes the right options but misses 2.9's un-deprecation: --json still warns.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent
