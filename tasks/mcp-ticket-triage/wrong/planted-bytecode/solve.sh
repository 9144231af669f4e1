#!/bin/bash
# Wrong (an attack on the verifier): the sources stay as they were, but __pycache__ holds
# byte code of the fixed package compiled as "unchecked-hash", which Python runs without
# looking at the source. The hidden tests must read the sources.
set -euo pipefail
cp -a /workspace /tmp/original
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
python3 - <<'PY'
import glob, py_compile
for src in glob.glob("shipping/**/*.py", recursive=True):
    py_compile.compile(src, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH, doraise=True)
PY
cp /tmp/original/shipping/*.py shipping/
