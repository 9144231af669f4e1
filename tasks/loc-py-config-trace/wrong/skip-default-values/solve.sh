#!/bin/bash
# Wrong: works around it in the loader by dropping env values equal to the default, which also
# drops an explicit environment override back to the default value.
set -euo pipefail
cd /workspace
printf 'relay/config/loader.py::resolve\n' > ANSWER.txt
python3 - <<'PY'
p = "relay/config/loader.py"
s = open(p).read()
old = "    merged = deep_merge(merged, env_overrides(environ, DEFAULTS))\n"
new = ("    env = env_overrides(environ, DEFAULTS)\n"
       "    env = {sec: {k: v for k, v in vals.items() if v != DEFAULTS[sec][k]} for sec, vals in env.items()}\n"
       "    merged = deep_merge(merged, env)\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
