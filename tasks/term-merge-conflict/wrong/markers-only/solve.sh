#!/bin/bash
# Wrong: resolves every conflict hunk correctly but never runs the code: render.py still
# imports total(), which main renamed, so invoice rendering is broken after the merge.
set -euo pipefail
cd /workspace
git clone -q shop.bundle shop
cd shop
git config user.name W; git config user.email w@example.invalid
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
git add -A
git commit -q --no-edit
