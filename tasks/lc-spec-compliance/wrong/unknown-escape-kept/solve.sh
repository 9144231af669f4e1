#!/bin/bash
# Wrong: adds \r (C-31) but keeps the starting code's handling of other escapes (the
# backslash and the character kept), which R-16 forbids: the document must be rejected.
# (Review attempt, issue 36 point 7: the oracle's kvx.c with this one change, by hand.)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
