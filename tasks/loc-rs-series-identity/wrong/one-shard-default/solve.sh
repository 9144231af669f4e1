#!/bin/bash
# Known wrong: the shortcut the report's `stats` invites once `--shards 1` is tried (12
# series, 320 samples replaced): one shard by default. The reported run and the crate's own
# tests are right again, but with more shards (README: identity holds for every `Config`)
# the two forms still land in different shards, and equal label sets still get different
# fingerprints. Named with the right function, so only the behaviour fails it.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/config.rs"
s = open(p).read()
old = "            shards: 4,\n"
assert s.count(old) == 1
s = s.replace(old, "            shards: 1,\n")
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::fingerprint" > ANSWER.txt
