#!/bin/bash
# Wrong: the oracle's fix, but the answer names the registry, where the duplicate series
# show, instead of the function whose own code made the sets share an array.
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
printf 'internal/series/registry.go::Registry.Register\n' > ANSWER.txt
