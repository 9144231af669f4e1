#!/bin/bash
# Wrong: reads "extended notice" as "not in the next major" and keeps --no-verify-tls
# deprecated. DEP-11 was registered in 1.8.0: extended notice carried it through 2.0, and the
# second major after 1.8.0 is 3.0 (docs/deprecations.md, Notice periods).
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --ca-file --silent --flush-ms
