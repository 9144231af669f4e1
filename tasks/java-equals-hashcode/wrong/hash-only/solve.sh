#!/bin/bash
# Wrong: hashes the canonical form but leaves equals(Sku) as an overload collections never call.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/main/java/com/acme/stock/Sku.java"
s = open(p).read()

old = "        return raw.hashCode();\n"
assert old in s
s = s.replace(old, "        return canonical().hashCode();\n")
open(p, "w").write(s)
PY
