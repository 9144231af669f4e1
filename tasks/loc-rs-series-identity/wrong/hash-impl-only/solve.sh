#!/bin/bash
# Known wrong: sees that `Hash for Labels` disagrees with `Eq` and makes the impl hash the
# labels that have a value itself, leaving `fingerprint` alone. The shard's HashMap now
# finds the other form, but only when both forms land in the same shard: the Db still picks
# the shard by the (unchanged) fingerprint, so with more than one shard the series is
# still split, and equal sets still have different fingerprints. The answer (`Labels::hash`)
# is one the key accepts; the behaviour fails it.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/model/labels.rs"
s = open(p).read()
old = "        state.write_u64(self.fingerprint());\n"
assert s.count(old) == 1
s = s.replace(old, "        for (k, v) in self.iter() {\n            k.hash(state);\n            v.hash(state);\n        }\n")
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::hash" > ANSWER.txt
