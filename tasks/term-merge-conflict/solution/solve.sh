#!/bin/bash
# Oracle: merge the branch; resolve the six conflicted files keeping both sides (per-currency
# exponents and thousands separators + main's sign handling, format_money's required keyword
# currency, Invoice.total_cents, both changelogs and both sides' tests); then fix the
# semantic conflicts in files git merged cleanly: the branch's new code still calls to_text(),
# Invoice.total()/Invoice.total, billing.util.dates and round() (main: round_half_up); and
# main's changes that break the branch's code without an error: VAT rates in per cent (the
# branch's VAT table per currency multiplied by 100), Payment.currency None = the paid invoice's
# currency (the branch's statement), the average per currency floored (main: round_half_up for
# every computed amount), and main's JSON amounts in major units at two decimals (the branch's
# exponents: JPY 0, KWD 3).
# The resolved files are in /nab/solution/merged/.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name Oracle; git config user.email oracle@example.invalid
git merge origin/feature/multi-currency || true
(cd /nab/solution/merged && find . -type f) | while read -r f; do cp "/nab/solution/merged/$f" "$f"; done
python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A
git commit -q --no-edit
git log --oneline --graph -3
