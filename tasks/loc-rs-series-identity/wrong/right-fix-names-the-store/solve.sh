#!/bin/bash
# Known wrong (the name): the oracle's fix, but the answer names the shard look-up where
# the second series is made, a function that only uses the hash it is given.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/model/labels.rs"
s = open(p).read()
old = "        h.write_u64(self.len() as u64);\n"
assert s.count(old) == 1
s = s.replace(old, "        h.write_u64(self.iter().count() as u64);\n")
open(p, "w").write(s)
PY
echo "src/storage/shard.rs::Shard::series_for" > ANSWER.txt
