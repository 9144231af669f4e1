#!/bin/bash
# Wrong: moves main back to before the clean-up, throwing away the later commits.
set -euo pipefail
cd /workspace
git clone -q ledger.bundle ledger
cd ledger
del=$(git log --diff-filter=D --format=%H -1 -- config/tax_rates.csv)
git reset -q --hard "$del^"
