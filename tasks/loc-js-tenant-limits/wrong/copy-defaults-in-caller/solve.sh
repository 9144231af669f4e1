#!/bin/bash
# Wrong: names the right function but fixes its caller: resolveAll hands resolvePolicy a fresh
# copy of the defaults (nested settings too) for each tenant. The gateway's plan and simulate
# come out right, but resolvePolicy called with its own default still writes the tiers' and
# tenants' settings into the shared DEFAULT_POLICY.
set -euo pipefail
cd /workspace
printf 'lib/policy/resolve.js::resolvePolicy\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/policy/resolve.js"
s = open(p).read()
old = "    policies.set(tenant.id, resolvePolicy(tenant, defaults));\n"
new = ("    const fresh = {};\n"
       "    for (const [key, value] of Object.entries(defaults)) {\n"
       "      fresh[key] = isPlainObject(value) ? { ...value } : value;\n"
       "    }\n"
       "    policies.set(tenant.id, resolvePolicy(tenant, fresh));\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
