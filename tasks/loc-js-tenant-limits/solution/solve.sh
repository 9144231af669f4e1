#!/bin/bash
# Oracle: resolvePolicy copied the defaults shallowly and then merged nested settings into
# them with Object.assign, so every tier and tenant wrote into the one shared defaults object
# (and every policy resolved from it). A nested setting must become a new object.
set -euo pipefail
cd /workspace
printf 'lib/policy/resolve.js::resolvePolicy\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/policy/resolve.js"
s = open(p).read()
old = "        Object.assign(policy[key], value);\n"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "        policy[key] = { ...policy[key], ...value };\n"))
PY
