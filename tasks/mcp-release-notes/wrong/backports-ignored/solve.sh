#!/bin/bash
# Wrong: lists #205, whose change already shipped in v2.3.1 through its backport #206
# (the PRs merged into main since v2.3.0, with no look at the release branches).
set -euo pipefail
cd /workspace
python3 /nab/solution/notes.py --backports-ignored
