#!/bin/bash
# Wrong: counts from the newest tag of any branch (v2.3.1) and includes backports.
set -euo pipefail
cd /workspace
python3 /nab/solution/notes.py --wrong-range
