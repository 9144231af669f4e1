#!/bin/bash
# Wrong (the cheapest shortcut): "turning the cache off makes it right", so every key gets a
# fresh serial number. No call returns another call's result any more, and no call is ever
# served from the cache either.
set -euo pipefail
cd /workspace
printf 'reports/cache/keys.py::call_key\n' > ANSWER.txt
python3 - <<'PY'
p = "reports/cache/keys.py"
s = open(p).read()
s = s.replace("import inspect\n", "import inspect\nimport itertools\n\n_SERIAL = itertools.count()\n", 1)
old = '    return "|".join(parts)\n'
new = '    parts.append(str(next(_SERIAL)))\n    return "|".join(parts)\n'
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
