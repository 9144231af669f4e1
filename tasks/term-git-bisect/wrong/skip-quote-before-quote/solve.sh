#!/bin/bash
# Wrong: names the right commit, and "fixes" the splitter by looking back: a quote before a
# delimiter ends the cell unless exactly one quote precedes it (a doubled quote). That is right
# for every cell of the June file and for runs of one, two, three or five quotes, but a cell
# with two doubled quotes before a delimiter ("y"""",z": y"",z) still ends there.
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
old = "      stop = index(tail, q FS)\n"
new = """      stop = 0; from = 2
      while ((k = index(substr(tail, from), q FS)) > 0) {
        k += from - 1
        if (k == 2 || substr(tail, k - 1, 1) != q || substr(tail, k - 2, 1) == q) { stop = k; break }
        from = k + 2
      }
"""
assert s.count(old) == 1
s = s.replace(old, new).replace("function cell(line, want,    n, tail, stop, v)", "function cell(line, want,    n, tail, stop, v, from, k)")
open(p, "w").write(s)
PY
[ "$(bin/colsum /tmp/june.csv amount)" = 677.25 ]
git commit -qam "csv.awk: a doubled quote before a delimiter does not end a quoted cell"
