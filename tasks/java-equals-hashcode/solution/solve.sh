#!/bin/bash
# Oracle: equals(Sku) was an overload, never called by collections, and hashCode hashed the typed
# spelling. Override equals(Object) and hash the canonical form equals compares.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/main/java/com/acme/stock/Sku.java"
s = open(p).read()
old = ("    public boolean equals(Sku other) {\n"
       "        return other != null && canonical().equals(other.canonical());\n"
       "    }\n\n"
       "    @Override\n"
       "    public int hashCode() {\n"
       "        return raw.hashCode();\n"
       "    }\n")
new = ("    @Override\n"
       "    public boolean equals(Object o) {\n"
       "        if (this == o) return true;\n"
       "        if (!(o instanceof Sku)) return false;\n"
       "        return canonical().equals(((Sku) o).canonical());\n"
       "    }\n\n"
       "    /** Hashes the canonical form, so spellings that are equal hash alike. */\n"
       "    @Override\n"
       "    public int hashCode() {\n"
       "        return canonical().hashCode();\n"
       "    }\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
