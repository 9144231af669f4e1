#!/bin/bash
# Wrong: removes every deprecated option, ignoring the later entries that postponed
# (--retry, 2.8.0) or withdrew (--json, 2.9.0) their removal.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms --json --retry
