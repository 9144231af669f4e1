#!/bin/bash
# Wrong: blames the line of main's splitter that ends a quoted cell (index of a quote and the
# delimiter) and names the commit that last touched it: the move of the splitter into
# lib/csv.awk (`git blame -C -C -C` and `git log -L` on it stop there too). The fix itself is
# right.
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
git blame --porcelain -L '/index(tail, q FS)/,+1' main -- lib/csv.awk | head -1 | cut -d' ' -f1 > /workspace/REGRESSION_COMMIT
# The right fix of main (the same as the oracle's), so that only the answer is wrong.
python3 - <<'PY'
p = "lib/csv.awk"
s = open(p).read()
start = s.index("function cell(")
end = s.index("\n}\n", start) + 3
s = s[:start] + """function cell(line, want,    n, i, c, inq, v) {
  n = 1; v = ""; inq = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (inq && c == q && substr(line, i + 1, 1) == q) { v = v c; i++ }
    else if (c == q) inq = !inq
    else if (c == FS && !inq) { if (n == want) return v; n++; v = "" }
    else v = v c
  }
  return n == want ? v : ""
}
""" + s[end:]
open(p, "w").write(s)
PY
[ "$(bin/colsum /tmp/june.csv amount)" = 677.25 ]
git commit -qam "csv.awk: a doubled quote before a delimiter does not end a quoted cell"
