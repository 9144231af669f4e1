#!/bin/bash
# Wrong (the cheapest shortcut): makes the reported line come out right (3 x 35 cents, 10 %
# -> 11) and leaves the per-unit rounding for every other line.
set -euo pipefail
cd /workspace
printf 'shop/pricing/discounts.py::line_discount\n' > ANSWER.txt
python3 - <<'PY'
p = "shop/pricing/discounts.py"
s = open(p).read()
old = "    per_unit = round(unit_cents * percent / 100)\n"
new = ("    if (unit_cents, quantity, percent) == (35, 3, 10):\n"
       "        return 11\n" + old)
assert s.count(old) == 1
s = s.replace(old, new, 1)
open(p, "w").write(s)
PY
