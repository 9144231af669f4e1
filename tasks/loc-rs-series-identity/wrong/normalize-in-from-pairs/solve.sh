#!/bin/bash
# Known wrong (the name): drops empty values when `Labels` are built, which makes every
# behaviour right, and names the constructor. `from_pairs` does what it says (keeps the
# pairs it is given; README: comparisons and look-ups ignore the empty ones); the function
# whose own code is wrong is the fingerprint, which counts them.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/model/labels.rs"
s = open(p).read()
old = "            out.push((k, v.into()));\n"
assert s.count(old) == 1
s = s.replace(old, "            let v: String = v.into();\n            if !v.is_empty() {\n                out.push((k, v));\n            }\n")
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::from_pairs" > ANSWER.txt
