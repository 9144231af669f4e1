#!/bin/bash
# Wrong (the grep-only answer): removes every option named on a line that schedules its
# removal "in 3.0". It misses --gzip (2.1.0 says "the next major release"), misses that
# --flush-ms goes in 3.0 after all (2.8.2 names only "the option deprecated in 2.3.0"),
# and removes --retry and --json, whose postponement (2.8.0) and withdrawal (2.9.0) name
# the release of their deprecation, not the option.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --batch --no-verify-tls --ca-file --json --retry --silent
