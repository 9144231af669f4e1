#!/bin/bash
# Wrong: rounds the line once, but with round() (half to even), so x.5 cents can round down.
set -euo pipefail
cd /workspace
printf 'shop/pricing/discounts.py::line_discount\n' > ANSWER.txt
python3 - <<'PY'
p = "shop/pricing/discounts.py"
s = open(p).read()
old = "    per_unit = round(unit_cents * percent / 100)\n    return per_unit * quantity\n"
s = s.replace(old, "    return round(unit_cents * quantity * percent / 100)\n", 1)
open(p, "w").write(s)
PY
