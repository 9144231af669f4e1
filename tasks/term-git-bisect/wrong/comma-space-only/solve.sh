#!/bin/bash
# Wrong: names the right commit, but "fixes" only what the June file shows: a doubled quote
# followed by a comma and a space inside a quoted cell (the comma is turned into a semicolon
# before splitting). Cells such as "c"",d" (no space) or another delimiter still split wrong.
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
sed -i 's|^/\^#/ { next }$|&\n{ gsub(/"", /, "\"\"; ") }|' bin/colsum
grep -q 'gsub(/"", /' bin/colsum
[ "$(bin/colsum /tmp/june.csv amount)" = 677.25 ]
git commit -qam "csv.awk: a doubled quote before a comma does not end a quoted cell"
