#!/bin/bash
# Wrong: removes every deprecated option, ignoring the later entries that extended (--retry,
# 2.8.0, "the alias kept by #2311") or withdrew (--json, DEP-24, 2.9.0) their notice.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms --json --retry
