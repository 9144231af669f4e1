#!/bin/bash
# Wrong: keeps --silent, which DEP-27 (2.7.0) registers only as silent mode's old switch
# (silent mode was added as `--silent` in 0.5.0), with standard notice.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --flush-ms
