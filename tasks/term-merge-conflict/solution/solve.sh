#!/bin/bash
# Oracle: merge, resolve each conflict keeping both sides, fix the semantic conflict
# (render.py still calls total(), which main renamed to total_cents()), commit the merge.
set -euo pipefail
cd /workspace
git clone -q shop.bundle shop
cd shop
git config user.name Oracle; git config user.email oracle@example.invalid
git merge origin/feature/currency-codes || true
cp /nab/solution/money.py invoicing/money.py
python3 - <<'PY'
import re
def resolve(path, join):
    t = open(path).read()
    pat = re.compile(r"<<<<<<< [^\n]*\n(.*?)=======\n(.*?)>>>>>>> [^\n]*\n", re.S)
    open(path, "w").write(pat.sub(lambda m: join(m.group(1), m.group(2)), t))
resolve("CHANGELOG.md", lambda a, b: a + b)
resolve("tests/test_money.py", lambda a, b: a + "\n\n" + b)
PY
sed -i 's/^from .lines import total$/from .lines import total_cents/; s/format_amount(total(lines), currency)/format_amount(total_cents(lines), currency)/' invoicing/render.py
python3 -m unittest discover -s tests -t .
git add -A
git commit -q --no-edit
git log --oneline --graph -6
