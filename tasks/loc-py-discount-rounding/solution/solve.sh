#!/bin/bash
# Oracle: name the function that rounds per unit with round() and make it round the line once, half up.
set -euo pipefail
cd /workspace
printf 'shop/pricing/discounts.py::line_discount\n' > ANSWER.txt
python3 - <<'PY'
p = "shop/pricing/discounts.py"
s = open(p).read()
s = s.replace("from dataclasses import dataclass\n",
              "from dataclasses import dataclass\nfrom decimal import ROUND_HALF_UP, Decimal\n", 1)
old = "    per_unit = round(unit_cents * percent / 100)\n    return per_unit * quantity\n"
new = ("    exact = Decimal(unit_cents * quantity) * Decimal(str(percent)) / 100\n"
       "    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))\n")
assert s.count(old) == 1
s = s.replace(old, new, 1)
open(p, "w").write(s)
PY
