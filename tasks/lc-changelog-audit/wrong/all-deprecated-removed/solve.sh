#!/bin/bash
# Wrong: removes every deprecated option, ignoring the later entries that postponed
# (--retry), planned for 4.0 (--flush-ms) or cancelled (--json) their removal.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms --json --retry
