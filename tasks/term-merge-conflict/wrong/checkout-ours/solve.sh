#!/bin/bash
# Wrong: takes main's side of every conflicted file (git checkout --ours .): the branch's
# per-currency formatting is lost, and its new modules still call the old API.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge origin/feature/multi-currency || true
git checkout --ours -- $(git diff --name-only --diff-filter=U)
git add -A
git commit -q --no-edit
