#!/bin/bash
# Wrong: names the right commit, and "fixes" the splitter by turning every doubled quote into
# a placeholder before splitting (and back after). A quoted cell that starts with a doubled
# quote ("""y"", z") loses its opening quote to the placeholder and splits at its comma.
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
python3 - <<'PY'
p = "lib/csv.awk"
s = open(p).read()
old = "  tail = line\n"
new = "  tail = line\n  gsub(q q, \"\\001\", tail)\n"
assert s.count(old) == 1
s = s.replace(old, new)
old = "    if (n == want) return v\n"
new = "    gsub(\"\\001\", q, v)\n    if (n == want) return v\n"
assert s.count(old) == 1
s = s.replace(old, new)
open(p, "w").write(s)
PY
[ "$(bin/colsum /tmp/june.csv amount)" = 677.25 ]
git commit -qam "csv.awk: a doubled quote before a delimiter does not end a quoted cell"
