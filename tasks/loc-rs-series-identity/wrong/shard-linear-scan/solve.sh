#!/bin/bash
# Known wrong: patches the look-up rather than the hash. `Shard::series_for` falls back to
# comparing the key with every series of the shard (`==` ignores empty labels), so one
# shard finds the other form; with several shards the forms are routed by their different
# fingerprints to different shards, and the series is split again. Right answer, wrong fix.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/storage/shard.rs"
s = open(p).read()
old = "        let idx = self.series.len();\n"
assert s.count(old) == 1
s = s.replace(old, "        if let Some(idx) = self.series.iter().position(|s| &s.key == key) {\n            return (idx, false);\n        }\n" + old)
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::fingerprint" > ANSWER.txt
