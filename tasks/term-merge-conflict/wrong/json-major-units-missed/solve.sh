#!/bin/bash
# Wrong: the oracle's merge, except main's JSON export (which git merged cleanly) keeps
# major_units() at two decimals (scaleb(-2)): the branch's JPY (no decimals) and KWD (three)
# amounts come out a hundred times too small / ten times too large.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge origin/feature/multi-currency || true
(cd /nab/solution/merged && find . -type f) | while read -r f; do cp "/nab/solution/merged/$f" "$f"; done
python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A
git commit -q --no-edit
