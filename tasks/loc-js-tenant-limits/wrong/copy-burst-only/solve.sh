#!/bin/bash
# Wrong (the cheapest shortcut): right function, but it only copies the setting the report
# shows (burst); window and headers are still merged into the shared defaults.
set -euo pipefail
cd /workspace
printf 'lib/policy/resolve.js::resolvePolicy\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/policy/resolve.js"
s = open(p).read()
old = "  const policy = { ...defaults };\n"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "  const policy = { ...defaults, burst: { ...defaults.burst } };\n"))
PY
