#!/bin/bash
# Wrong: the right answer, but the fix copies the tenant's labels before the line's tags
# are added (ingest's seriesLabels), so no two lines share the tenant's array. With still
# shares its receiver's room: sets grown by append share theirs too, and the export's
# buckets overwrite each other's `le`.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "internal/ingest/ingest.go"
s = open(p).read()
old = "set := t.Base()\n"
assert s.count(old) == 1
open(p, "w").write(s.replace(old, "set := t.Base().Clone()\n"))
PY
printf 'internal/labels/labels.go::Set.With\n' > ANSWER.txt
