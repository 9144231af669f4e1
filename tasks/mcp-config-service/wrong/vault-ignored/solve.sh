#!/bin/bash
# Wrong: never asks the vault: the secrets keep configsvc's names, unpinned.
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --no-vault
