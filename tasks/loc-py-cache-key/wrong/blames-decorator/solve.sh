#!/bin/bash
# Wrong: the fix is right but the answer names the decorator that calls the key builder.
set -euo pipefail
cd /workspace
printf 'reports/cache/decorator.py::cached\n' > ANSWER.txt
python3 - <<'PY'
p = "reports/cache/keys.py"
s = open(p).read()
old = ("    for name, param in sig.parameters.items():\n"
       "        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):\n"
       "            parts.append(f\"{name}={canonical(bound.arguments[name])}\")\n")
new = ("    for name, value in bound.arguments.items():\n"
       "        parts.append(f\"{name}={canonical(value)}\")\n")
open(p, "w").write(s.replace(old, new))
PY
