#!/bin/bash
# Oracle: clone, find the commit that deleted the table, restore it from that commit's parent.
set -euo pipefail
cd /workspace
git clone -q ledger.bundle ledger
cd ledger
git config user.name "Oracle"; git config user.email "oracle@example.invalid"
del=$(git log --diff-filter=D --format=%H -1 -- config/tax_rates.csv)
git checkout "$del^" -- config/tax_rates.csv
git commit -q -m "Restore config/tax_rates.csv deleted in ${del:0:12}"
bash bin/ledger report data/2024-q1.ledger
