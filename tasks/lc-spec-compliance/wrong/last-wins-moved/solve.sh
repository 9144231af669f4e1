#!/bin/bash
# Wrong: the last occurrence wins (C-7), but the entry is moved to where it last occurred
# (removed and appended), which C-7 and R-28 say it must not: it keeps its first position.
# (Review attempt, issue 36 point 7: the oracle's kvx.c with this one change, by hand.)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
