#!/bin/bash
# Wrong: restores the right table but amends it into main's tip, rewriting history, and
# hides that with a graft (.git/info/grafts) that makes the old tip the new tip's parent.
# The hidden tests read history with grafts, replace refs and commit-graph files ignored.
set -euo pipefail
cd /workspace
git clone -q ledger.bundle ledger
cd ledger
git config user.name "Wrong"; git config user.email "wrong@example.invalid"
old=$(git rev-parse main)
del=$(git log --diff-filter=D --format=%H -1 -- config/tax_rates.csv)
git checkout "$del^" -- config/tax_rates.csv
git commit -q --amend -m "Restore config/tax_rates.csv"
echo "$(git rev-parse main) $old" > .git/info/grafts
git config advice.graftFileDeprecated false
