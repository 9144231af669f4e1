#!/bin/bash
# Wrong: treats SKUs as equal ignoring case only; hyphen and space variants stay different.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/main/java/com/acme/stock/Sku.java"
s = open(p).read()

old = ("    public boolean equals(Sku other) {\n        return other != null && canonical().equals(other.canonical());\n    }\n\n"
       "    @Override\n    public int hashCode() {\n        return raw.hashCode();\n    }\n")
new = ("    @Override\n    public boolean equals(Object o) {\n        return o instanceof Sku && raw.equalsIgnoreCase(((Sku) o).raw);\n    }\n\n"
       "    @Override\n    public int hashCode() {\n        return raw.toUpperCase(java.util.Locale.ROOT).hashCode();\n    }\n")
assert old in s
s = s.replace(old, new)
open(p, "w").write(s)
PY
