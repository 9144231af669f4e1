#!/bin/bash
# Known wrong: the cheapest fix the dump suggests. The edge collector's lines carry
# `env=""`, so the parser drops empty label values; the reported roll-up is right again and
# the crate's own tests pass, but `Db::append` with `Labels` that hold an empty value still
# makes a second series (README: identity holds whichever way a sample comes in), and the
# fingerprint still differs for equal sets. Named with the right function, so only the
# behaviour fails it.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/parse/line.rs"
s = open(p).read()
old = "                    labels.push((k.to_string(), v));\n"
assert s.count(old) == 1
s = s.replace(old, "                    if !v.is_empty() {\n                        labels.push((k.to_string(), v));\n                    }\n")
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::fingerprint" > ANSWER.txt
