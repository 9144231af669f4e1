#!/bin/bash
# Wrong: the oracle's merge, except that the branch's statement reads a payment's missing currency
# as EUR (pay.currency or "EUR", the old default) instead of the currency of the invoice it pays
# (main: ledger.currency_of): a yen invoice's payment is booked as euros.
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
