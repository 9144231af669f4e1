#!/bin/bash
# Wrong: see shim.py (the v2 core re-implemented in every plugin, v3 calls made and thrown away).
set -euo pipefail
cd /workspace
python3 /nab/solution/shim.py
python3 -c "from fleet.plugins import all_plugins; print(len(all_plugins()), \"plugins load\")"
