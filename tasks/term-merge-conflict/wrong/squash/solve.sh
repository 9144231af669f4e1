#!/bin/bash
# Wrong: the right tree, but squashed into one ordinary commit on main (git merge --squash):
# no merge commit, the branch's history is not part of main.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge --squash origin/feature/multi-currency || true
(cd /nab/solution/merged && find . -type f) | while read -r f; do cp "/nab/solution/merged/$f" "$f"; done
git add -A
git commit -q -m "Merge feature/multi-currency (squashed)"
