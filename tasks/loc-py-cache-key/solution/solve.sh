#!/bin/bash
# Oracle: call_key only looked at positional parameters, so keyword-only and **kwargs arguments
# (currency, include_refunds, export options) were left out of the key. Key on every bound argument.
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
       "        parts.append(f\"{name}={canonical(value)}\")\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
