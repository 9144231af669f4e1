#!/bin/bash
# Wrong: takes the feature branch's side of every conflict (main's negative-amount fix is lost)
# and patches the render import so the suite imports.
set -euo pipefail
cd /workspace
git clone -q shop.bundle shop
cd shop
git config user.name W; git config user.email w@example.invalid
git merge -q -X theirs --no-edit origin/feature/currency-codes
sed -i 's/^from .lines import total$/from .lines import total_cents/; s/format_amount(total(lines), currency)/format_amount(total_cents(lines), currency)/' invoicing/render.py
git commit -q -am "Fix render import after merge"
