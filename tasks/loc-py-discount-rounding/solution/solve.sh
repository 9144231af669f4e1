#!/bin/bash
# Oracle: name the function that rounds per unit with round() and make it round the line once, half up.
set -euo pipefail
cd /workspace
printf 'shop/pricing/discounts.py::line_discount\n' > ANSWER.txt
python3 - <<'PY'
import re
p = "shop/pricing/discounts.py"
s = open(p).read()
s = s.replace("from .loyalty import loyalty_percent\n",
              "from .loyalty import loyalty_percent\nfrom ..money import percent_of\n", 1)
old = "    per_unit = round(unit_cents * percent / 100)\n    return per_unit * quantity\n"
assert old in s
s = s.replace(old, "    return percent_of(unit_cents * quantity, percent)\n", 1)
open(p, "w").write(s)
PY
