#!/bin/bash
# Wrong: the right removals, warnings and version, but CHANGELOG.md is rewritten with only the
# new 3.0.0 section: the history below it (2.9.4 and older) is gone.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms
python3 - <<'PY'
text = open("CHANGELOG.md").read()
open("CHANGELOG.md", "w").write(text.split("\n## 2.9.4", 1)[0] + "\n")
PY
