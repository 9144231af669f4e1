#!/bin/bash
# Wrong: resolves the conflicts, then fixes only what the project's own test suite reports
# (statement.py, quote.py, the imports, the feature's tests) until it is green. Untested code
# of the branch is left on the old API (aging_tables, currency_table, largest_by_currency,
# convert_invoice_total) and conversion still rounds with round() instead of round_half_up; none
# of main's silent changes (VAT per cent, Payment.currency None, JSON major units, the average's
# rounding) is ported, since no project test shows them.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge origin/feature/multi-currency || true
(cd /nab/solution/merged && find . -type f) | while read -r f; do cp "/nab/solution/merged/$f" "$f"; done
sed -i 's/^from ..money import to_text$/from ..money import format_money/; s/inv\.total()/inv.total_cents/' billing/reports/by_currency.py
sed -i 's/from billing.money import to_text/from billing.money import format_money/; s/to_text(133332, "USD")/format_money(133332, currency="USD")/' tests/test_fx.py
python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A
git commit -q --no-edit
