#!/bin/bash
# Builds workspace/textkit.bundle deterministically (fixed dates and identities => fixed
# hashes; expected/REGRESSION_COMMIT pins the answer, written by generate.py). The history is
# described in generate.py. Run from anywhere: bash generate.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/generate.py"
