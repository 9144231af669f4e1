#!/bin/bash
# Wrong: switches to half-up rounding but still rounds each unit, then multiplies.
set -euo pipefail
cd /workspace
printf 'shop/pricing/discounts.py::line_discount\n' > ANSWER.txt
python3 - <<'PY'
p = "shop/pricing/discounts.py"
s = open(p).read()
s = s.replace("from .loyalty import loyalty_percent\n",
              "from .loyalty import loyalty_percent\nfrom ..money import percent_of\n", 1)
old = "    per_unit = round(unit_cents * percent / 100)\n"
s = s.replace(old, "    per_unit = percent_of(unit_cents, percent)\n", 1)
open(p, "w").write(s)
PY
