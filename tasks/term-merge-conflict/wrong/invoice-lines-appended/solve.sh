#!/bin/bash
# Wrong: the oracle's merge, except that the branch's convert_invoice still builds an empty
# invoice and appends the converted lines: main made Invoice.lines a tuple, fixed when the
# invoice is made, so it fails (no project test calls it).
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
