#!/bin/bash
# Wrong: lists PR titles instead of their release notes.
set -euo pipefail
cd /workspace
python3 /nab/solution/notes.py --titles
