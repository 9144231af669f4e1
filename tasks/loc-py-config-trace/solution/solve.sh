#!/bin/bash
# Oracle: the env layer seeded each section it touched with the built-in defaults, so merging
# it over the file layer put defaults back over file values. It must carry only what it sets.
set -euo pipefail
cd /workspace
printf 'relay/config/env_layer.py::env_overrides\n' > ANSWER.txt
python3 - <<'PY'
p = "relay/config/env_layer.py"
s = open(p).read()
old = "values = out.setdefault(section, dict(defaults[section]))"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "values = out.setdefault(section, {})"))
PY
