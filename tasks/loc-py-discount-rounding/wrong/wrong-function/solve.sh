#!/bin/bash
# Wrong: the code fix is right but the answer names the caller instead of the defective function.
set -euo pipefail
cd /workspace
printf 'shop/checkout.py::compute_totals\n' > ANSWER.txt
python3 - <<'PY'
p = "shop/pricing/discounts.py"
s = open(p).read()
s = s.replace("from .loyalty import loyalty_percent\n",
              "from .loyalty import loyalty_percent\nfrom ..money import percent_of\n", 1)
old = "    per_unit = round(unit_cents * percent / 100)\n    return per_unit * quantity\n"
s = s.replace(old, "    return percent_of(unit_cents * quantity, percent)\n", 1)
open(p, "w").write(s)
PY
