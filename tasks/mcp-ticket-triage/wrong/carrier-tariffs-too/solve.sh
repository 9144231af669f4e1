#!/bin/bash
# Wrong: every exclusive weight step in the package made inclusive, the carriers' contracts included
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's/            if weight_g < under_g:/            if weight_g <= under_g:/' shipping/carriers/base.py
grep -q 'weight_g <= under_g' shipping/carriers/base.py
