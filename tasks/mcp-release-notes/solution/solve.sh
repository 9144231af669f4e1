#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/notes.py
cat docs/release-notes/2.4.0.md
