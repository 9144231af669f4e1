#!/bin/bash
# Wrong: right about --retry and --json, but keeps --flush-ms deprecated on the extended notice
# DEP-21 got in 2.3.0, missing 2.8.2, which carries out item 3 of the release meeting it names by
# date (docs/meetings/): DEP-21's notice becomes standard, so it goes in 3.0.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent
