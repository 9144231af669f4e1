#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py
bash deploy/check-env.sh config/*.env
cat config/production.env
