#!/bin/bash
# Wrong: restores the table from the commit that first added it (stale rates).
set -euo pipefail
cd /workspace
git clone -q ledger.bundle ledger
cd ledger
git config user.name "Wrong"; git config user.email "wrong@example.invalid"
add=$(git log --diff-filter=A --format=%H -- config/tax_rates.csv | tail -1)
git checkout "$add" -- config/tax_rates.csv
git commit -q -m "Restore tax table"
