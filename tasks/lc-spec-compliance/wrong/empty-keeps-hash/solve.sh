#!/bin/bash
# Wrong: C-12 read as "no error for an empty value" only: `k =    # nothing` keeps
# `# nothing` as its value (the '#' at the start of the value is not taken as the inline
# comment that C-12 names), so the key does not get the empty string.
# (Review attempt, issue 36 point 7: the oracle's kvx.c with this one change, by hand.)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
