#!/bin/bash
# Wrong (reading only entries that name an option next to its notice): keeps --gzip (DEP-17
# names it "the boolean compression switch added in 0.3.0") and --flush-ms (its change to
# standard notice is item 3 of a release meeting), and removes --json and --retry, whose
# withdrawal (2.9.0, "DEP-24") and extension (2.8.0, "the alias kept by #2311") name no option.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --batch --no-verify-tls --ca-file --json --retry --silent
