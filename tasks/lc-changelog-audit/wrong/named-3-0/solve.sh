#!/bin/bash
# Wrong (the grep-only answer of this task's earlier material, kept as a wrong): keeps --gzip
# and --flush-ms and removes --json and --retry. It misses DEP-17 (2.1.0: "the boolean
# compression switch added in 0.3.0"), DEP-21's change to standard notice (item 3 of the release
# meeting that 2.8.2 carries out), DEP-24's withdrawal (2.9.0) and 2.8.0's extension of "the
# alias kept by #2311".
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --batch --no-verify-tls --ca-file --json --retry --silent
