#!/bin/bash
# Oracle. On main's first-parent line the June total is right, wrong (an old bug: refunds
# skipped), right again (fixed), then wrong from the merge of import-formats on; every commit
# of that branch forked before the refunds fix, so with the June file each of them is wrong
# for the old reason. A reproduction that leaves the refunds out and keeps what the June file
# trips over (a doubled quote before a comma inside a quoted cell) is monotonic: bisect it,
# skipping commits where colsum does not run. Then fix the cell splitter on main.
set -euo pipefail
cd /workspace
git clone -q textkit.bundle textkit
cd textkit
git config user.name "Oracle"
git config user.email "oracle@example.invalid"
printf '%s\n' 'date,region,item,amount' '2024-06-03,north,desk,480.00' \
  '2024-06-07,east,"monitor 27"", matte",215.00' '2024-06-08,south,chair,95.25' > /tmp/repro.csv
git bisect start main v1.0 >/dev/null
git bisect run sh -c 'out=$(bin/colsum /tmp/repro.csv amount 2>/dev/null) || exit 125; [ "$out" = 790.25 ]' > /tmp/bisect.log
grep 'is the first bad commit' /tmp/bisect.log
git rev-parse refs/bisect/bad > /workspace/REGRESSION_COMMIT
git bisect reset main > /dev/null 2>&1
# The fix: a quoted cell ends at a quote that is not doubled, whatever follows it.
python3 - <<'PY'
p = "lib/csv.awk"
s = open(p).read()
start = s.index("function cell(")
end = s.index("\n}\n", start) + 3
s = s[:start] + '''function cell(line, want,    n, i, c, inq, v) {
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
''' + s[end:]
open(p, "w").write(s)
PY
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
[ "$(bin/colsum /tmp/june.csv amount)" = 677.25 ]
bash tests/run.sh
git commit -qam "csv.awk: a doubled quote before a delimiter does not end a quoted cell"
git log --oneline -2
cat /workspace/REGRESSION_COMMIT
