#!/bin/bash
# Wrong: keys on every bound argument, but an argument canonical() cannot key is keyed by its
# repr() instead of being refused (an object's repr names its address, not its value).
set -euo pipefail
cd /workspace
printf 'reports/cache/keys.py::call_key\n' > ANSWER.txt
python3 - <<'PY'
p = "reports/cache/keys.py"
s = open(p).read()
old = ("    for name, param in sig.parameters.items():\n"
       "        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):\n"
       "            parts.append(f\"{name}={canonical(bound.arguments[name])}\")\n")
new = ("    for name, value in bound.arguments.items():\n"
       "        try:\n"
       "            text = canonical(value)\n"
       "        except TypeError:\n"
       "            text = repr(value)\n"
       "        parts.append(f\"{name}={text}\")\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
