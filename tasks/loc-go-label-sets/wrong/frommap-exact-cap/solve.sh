#!/bin/bash
# Wrong: blames the room FromMap leaves (make(Set, 0, len(m)+extraLabels)) and makes the
# tenant's set exactly its size. The reported interval comes out right, but With still
# appends into its receiver, and sets that append has grown have room of their own.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "internal/labels/labels.go"
s = open(p).read()
old = "s := make(Set, 0, len(m)+extraLabels)"
assert s.count(old) == 1
s = s.replace(old, "s := make(Set, 0, len(m))")
s = s.replace("const extraLabels = 4", "const extraLabels = 0")
open(p, "w").write(s)
PY
printf 'internal/labels/labels.go::FromMap\n' > ANSWER.txt
