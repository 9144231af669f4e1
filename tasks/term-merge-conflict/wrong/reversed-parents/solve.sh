#!/bin/bash
# Wrong: the right tree, but merged the other way round (main merged into the branch, then
# main moved there): the merge's first parent is the branch, not main's old tip.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git checkout -q -b merged origin/feature/multi-currency
git merge main || true
(cd /nab/solution/merged && find . -type f) | while read -r f; do cp "/nab/solution/merged/$f" "$f"; done
git add -A
git commit -q --no-edit
git checkout -q main
git reset -q --hard merged
