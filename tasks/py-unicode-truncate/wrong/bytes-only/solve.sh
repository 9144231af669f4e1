#!/bin/bash
# Wrong: fixes the byte-limited cut at cluster boundaries but leaves truncate() on code points.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "textkit/truncate.py"
s = open(p).read()
old = '    return text.encode("utf-8")[:max_bytes].decode("utf-8", errors="ignore")\n'
new = ('    from .graphemes import iter_graphemes\n'
       '    out, used = [], 0\n'
       '    for cluster in iter_graphemes(text):\n'
       '        used += len(cluster.encode("utf-8"))\n'
       '        if used > max_bytes:\n'
       '            break\n'
       '        out.append(cluster)\n'
       '    return "".join(out)\n')
assert old in s
open(p, "w").write(s.replace(old, new))
PY
