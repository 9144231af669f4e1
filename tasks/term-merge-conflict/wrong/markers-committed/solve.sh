#!/bin/bash
# Wrong: commits the merge with the conflict markers still in the files.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge origin/feature/multi-currency || true
git add -A
git commit -q --no-edit
