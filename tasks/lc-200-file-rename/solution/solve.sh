#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/migrate.py
# Two plugins in other forms the checks must accept as well (a plain import, keywords, ...).
python3 /nab/solution/alt_forms.py
python3 -c "from fleet.plugins import all_plugins; print(len(all_plugins()), \"plugins load\")"
