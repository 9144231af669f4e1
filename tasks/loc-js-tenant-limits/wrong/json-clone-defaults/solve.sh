#!/bin/bash
# Wrong: right function, but deep-copies the defaults through JSON, which drops the keyBy
# function and turns the exempt regular expressions into empty objects.
set -euo pipefail
cd /workspace
printf 'lib/policy/resolve.js::resolvePolicy\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/policy/resolve.js"
s = open(p).read()
old = "  const policy = { ...defaults };\n"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "  const policy = JSON.parse(JSON.stringify(defaults));\n"))
PY
