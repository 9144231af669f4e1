#!/bin/bash
# Wrong: merges the environment first and the file over it, so file values survive but the
# environment no longer overrides the file.
set -euo pipefail
cd /workspace
printf 'relay/config/loader.py::resolve\n' > ANSWER.txt
python3 - <<'PY'
p = "relay/config/loader.py"
s = open(p).read()
old = ("    merged = deep_merge(DEFAULTS, file_values(path, DEFAULTS))\n"
       "    merged = deep_merge(merged, env_overrides(environ, DEFAULTS))\n")
new = ("    merged = deep_merge(DEFAULTS, env_overrides(environ, DEFAULTS))\n"
       "    merged = deep_merge(merged, file_values(path, DEFAULTS))\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
