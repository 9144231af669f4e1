#!/bin/bash
# Wrong: names the right commit, then reverts it on main; the revert conflicts with the later
# commits (a rename, -q QUOTE) and is resolved with the culprit's parent's colsum, which
# undoes everything main gained since (-p, -v, -q, the refunds fix, COLSUM_DIGITS, --help).
set -euo pipefail
cd /workspace
git clone -q textkit.bundle textkit
cd textkit
git config user.name "Wrong"
git config user.email "wrong@example.invalid"
cat > /tmp/june.csv <<'CSV'
date,region,item,amount
2024-06-03,north,desk,480.00
2024-06-03,east,"monitor 24"" (matte)",215.00
2024-06-04,south,refund lamp,-120.50
2024-06-05,west,"shelf, oak",210.00
2024-06-06,north,"cable ""USB-C""",12.50
2024-06-07,east,"refund: monitor 27"", matte",-215.00
2024-06-08,south,chair,95.25
CSV
git rev-parse ":/colsum: split cells with index()" > /workspace/REGRESSION_COMMIT
c=$(cat /workspace/REGRESSION_COMMIT)
if ! git revert --no-edit "$c" > /dev/null 2>&1; then
  git checkout "$c^" -- bin/colsum
  git add bin/colsum
  git -c core.editor=true revert --continue > /dev/null
fi
