#!/bin/bash
# Wrong: resolves the six conflicted files correctly (both sides kept) but nothing else: the
# files git merged cleanly still use to_text(), Invoice.total(), billing.util.dates, round().
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge origin/feature/multi-currency || true
(cd /nab/solution/merged && find . -type f) | while read -r f; do cp "/nab/solution/merged/$f" "$f"; done
git add -A
git commit -q --no-edit
