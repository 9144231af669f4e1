#!/bin/bash
# Known wrong: fixes identity where a series key is made. `SeriesKey::new` rebuilds its
# labels from the ones that have a value, so every way in makes one series and the report
# is right again (the crate's own tests pass), but `Labels::fingerprint` still counts empty
# labels: equal label sets still get different fingerprints (README: equal sets, equal
# fingerprints). Named with the right function, so only the behaviour fails it.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/model/series_key.rs"
s = open(p).read()
old = "            labels,\n        })\n"
assert s.count(old) == 1
s = s.replace(old, "            labels: Labels::from_pairs(labels.iter())?,\n        })\n")
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::fingerprint" > ANSWER.txt
