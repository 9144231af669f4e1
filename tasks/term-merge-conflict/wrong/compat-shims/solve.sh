#!/bin/bash
# Wrong: resolves the conflicts, then makes the branch's code run by bringing main's old
# names back as shims (money.to_text with the EUR default, Invoice.total(), billing.util.dates)
# instead of porting the branch to main's API. The suite passes; main's changes are undone.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
cd /workspace
git clone -q billing.bundle billing
cd billing
git config user.name W; git config user.email w@example.invalid
git merge origin/feature/multi-currency || true
(cd /nab/solution/merged && find . -type f) | while read -r f; do cp "/nab/solution/merged/$f" "$f"; done
cat >> billing/money.py <<'PY'


def to_text(cents, currency="EUR", symbol=False):
    """Compatibility alias of format_money."""
    return format_money(cents, currency=currency, symbol=symbol)
PY
python3 - <<'PY'
p = "billing/core/invoice.py"
t = open(p).read()
t = t.replace("    @property\n    def due(self):", "    def total(self):\n        return self.total_cents\n\n    @property\n    def due(self):")
open(p, "w").write(t)
PY
printf '"""Moved to billing.core.dates."""\nfrom ..core.dates import *  # noqa: F401,F403\n' > billing/util/dates.py
python3 -m unittest discover -s tests -t . 2>&1 | tail -1
git add -A
git commit -q -m "Merge feature/multi-currency"
