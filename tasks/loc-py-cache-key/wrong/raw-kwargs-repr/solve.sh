#!/bin/bash
# Wrong: appends the raw keyword arguments to the key. Results are right, but a call that passes
# a default explicitly or an argument by keyword misses the cache.
set -euo pipefail
cd /workspace
printf 'reports/cache/keys.py::call_key\n' > ANSWER.txt
python3 - <<'PY'
p = "reports/cache/keys.py"
s = open(p).read()
old = '    return "|".join(parts)\n'
new = '    parts.append(canonical(dict(kwargs)))\n    return "|".join(parts)\n'
assert old in s
open(p, "w").write(s.replace(old, new))
PY
