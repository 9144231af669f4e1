#!/bin/bash
# Attempt: the oracle's parser only if the code under test can read the hidden tests
# (/nab/tests, the verifier's); otherwise the starting code's behaviour. It must fail: the
# probe runs as the sandbox user, which cannot read them.
# (Review attempt, issue 36 point 7: the oracle's kvx.c with this one change, by hand.)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
