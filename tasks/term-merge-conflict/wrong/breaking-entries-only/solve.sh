#!/bin/bash
# Wrong: ports what main's CHANGELOG marks **Breaking** and the rounding rule's round() (the old
# names, rate_for in per cent in the branch's VAT table, Payment.currency None in the statement,
# round() in convert) but nothing git merged that no entry names: main's JSON amounts stay at two
# decimals, and the branch's average per currency still floors (//).
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
