#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/migrate.py
python3 -c "from fleet.plugins import all_plugins; print(len(all_plugins()), \"plugins load\")"
