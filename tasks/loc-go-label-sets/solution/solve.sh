#!/bin/bash
# The oracle. labels.Set.With appended the new label to its receiver when the name sorts
# after every label the set has: when the receiver had room (FromMap leaves some, and
# append's own growth does), the result shared the receiver's array, so every set made
# that way from one set (a tenant's labels, a series' labels in the export) wrote into
# one slot, and each rewrote the others' last label. The fix: With always returns a set
# of its own.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "internal/labels/labels.go"
s = open(p).read()
old = """	i := s.index(name)
	if i == len(s) {
		return append(s, Label{Name: name, Value: value})
	}
	out := make(Set, 0, len(s)+1)
"""
new = """	i := s.index(name)
	out := make(Set, 0, len(s)+1)
	if i == len(s) {
		out = append(out, s...)
		return append(out, Label{Name: name, Value: value})
	}
"""
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
printf 'internal/labels/labels.go::Set.With\n' > ANSWER.txt
