#!/bin/bash
# Builds workspace/textkit.bundle deterministically (fixed dates and identities => fixed
# hashes; expected/FIRST_BAD_COMMIT pins the first bad commit). The history is described in
# generate.py. Run from anywhere: bash generate.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/generate.py"
