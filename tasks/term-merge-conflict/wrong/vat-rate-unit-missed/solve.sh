#!/bin/bash
# Wrong: the oracle's merge, except that the branch's VAT table per currency
# (reports/by_currency.py vat_tables) still prints rate_for(category) * 100: main made VAT rates
# per cent (Decimal("24")), so it prints 2400.0%. Only the port of the renamed names is done there.
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
