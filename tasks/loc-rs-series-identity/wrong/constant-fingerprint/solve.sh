#!/bin/bash
# Known wrong: makes equal sets hash alike the blunt way, a fingerprint that ignores the
# labels (the hash of nothing). Every look-up is right (one shard, one HashMap bucket), but
# different label sets now share a fingerprint, which README rules out. Right answer.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/model/labels.rs"
s = open(p).read()
old = "        let mut h = Fnv::new();\n        h.write_u64(self.len() as u64);\n"
assert s.count(old) == 1
s = s.replace(old, "        let h = Fnv::new();\n        if h.finish() != 0 {\n            return h.finish();\n        }\n        let mut h = Fnv::new();\n        h.write_u64(self.len() as u64);\n")
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::fingerprint" > ANSWER.txt
