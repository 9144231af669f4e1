#!/bin/bash
# Wrong: takes the branch's side of every conflicted file (git checkout --theirs .): main's
# negative-amount fix, format_money and total_cents are lost where the files conflicted.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge origin/feature/multi-currency || true
git checkout --theirs -- $(git diff --name-only --diff-filter=U)
git add -A
git commit -q --no-edit
