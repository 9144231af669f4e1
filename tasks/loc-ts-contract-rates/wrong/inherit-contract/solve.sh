#!/bin/bash
# Wrong (a fix at a decoy): blames the account normalizer for not passing the contract down to
# child accounts and adds it to the inherited settings. The directory already looks contracts
# up along the ancestors, so nothing changes: the cache still shares cards across books.
set -euo pipefail
cd /workspace
printf 'src/accounts/normalize.ts::normalizeAccount\n' > ANSWER.txt
python3 - <<'PY'
p = "src/accounts/normalize.ts"
s = open(p).read()
old = "['currency', 'taxRegion', 'anchorDay']"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "['currency', 'taxRegion', 'anchorDay', 'contract']"))
PY
