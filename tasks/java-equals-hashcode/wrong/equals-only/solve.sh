#!/bin/bash
# Wrong: overrides equals(Object) properly but still hashes the typed spelling.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/main/java/com/acme/stock/Sku.java"
s = open(p).read()

old = "    public boolean equals(Sku other) {\n        return other != null && canonical().equals(other.canonical());\n    }\n"
new = "    @Override\n    public boolean equals(Object o) {\n        return o instanceof Sku && canonical().equals(((Sku) o).canonical());\n    }\n"
assert old in s
s = s.replace(old, new)
open(p, "w").write(s)
PY
