#!/bin/bash
# Wrong: merges the layers but ignores unset entries (DEBUG_SQL, SOAP_PASSWORD survive).
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --ignore-unset
