#!/bin/bash
# Wrong: restores the right file in the working tree but never commits it.
set -euo pipefail
cd /workspace
git clone -q ledger.bundle ledger
cd ledger
del=$(git log --diff-filter=D --format=%H -1 -- config/tax_rates.csv)
git checkout "$del^" -- config/tax_rates.csv
