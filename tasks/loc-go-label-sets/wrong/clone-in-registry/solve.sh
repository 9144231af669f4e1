#!/bin/bash
# Wrong: the right answer, but the fix is a defensive copy where the duplicates show, in
# the registry (Register keeps a clone of the set it is given). That makes the reported
# interval right (the stored sets no longer share the tenant's array), but With still
# returns sets that share their receiver's room: the export's histogram buckets, made
# from one set with `job` added, all end with the last `le`.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "internal/series/registry.go"
s = open(p).read()
old = "e := &Series{Name: name, Labels: s, Agg:"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "e := &Series{Name: name, Labels: s.Clone(), Agg:"))
PY
printf 'internal/labels/labels.go::Set.With\n' > ANSWER.txt
