#!/bin/bash
# Known wrong: sees that the two forms of web-3 sit in different shards and makes the store
# look for an equal key in every shard before it routes a sample by fingerprint. Every
# sample now joins the right series, but the defect stays: equal label sets still get
# different fingerprints (README: equal sets, equal fingerprints). Right answer, wrong fix.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/storage/db.rs"
s = open(p).read()
old = "        let sh = self.shard_of(key);\n"
assert s.count(old) == 1
s = s.replace(old, "        let sh = (0..self.shards.len())\n            .find(|&i| self.shards[i].series().iter().any(|s| &s.key == key))\n            .unwrap_or_else(|| self.shard_of(key));\n")
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::fingerprint" > ANSWER.txt
