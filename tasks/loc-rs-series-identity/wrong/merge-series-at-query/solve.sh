#!/bin/bash
# Known wrong: fixes what the report shows, where it shows. `query::select` merges the
# series whose keys are equal (their samples in time order, one per time), so every
# roll-up is right; the store still keeps two series (counts, listings, stats, export), an
# older sample in the other form is not refused, and fingerprints still differ. Right
# answer, wrong fix.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/query/select.rs"
s = open(p).read()
old = "    out.sort_by(|a, b| a.key.cmp(&b.key));\n    Ok(out)\n"
assert s.count(old) == 1
new = """    out.sort_by(|a, b| a.key.cmp(&b.key));
    let mut merged: Vec<Selected> = Vec::new();
    for s in out {
        match merged.last_mut() {
            Some(last) if last.key == s.key => {
                last.samples.extend(s.samples);
                last.samples.sort_by_key(|x| x.ts);
                last.samples.dedup_by_key(|x| x.ts);
            }
            _ => merged.push(s),
        }
    }
    Ok(merged)
"""
s = s.replace(old, new)
open(p, "w").write(s)
PY
echo "src/model/labels.rs::Labels::fingerprint" > ANSWER.txt
