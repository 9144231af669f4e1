#!/bin/bash
# Wrong: instead of porting the branch's code to main's new meanings, puts the old ones back:
# VAT rates as fractions again (tax.py, vat.py and main's rate test adapted) and Payment.currency
# defaulting to EUR again, so the branch's VAT table and statement work as the branch wrote them.
# main's changes do not stand.
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
