#!/bin/bash
# Wrong: part 2 done, part 1 (inclusive band limits) forgotten
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's/        if weight_g <= up_to_g:/        if weight_g < up_to_g:/' shipping/rates.py
grep -q 'weight_g < up_to_g' shipping/rates.py
