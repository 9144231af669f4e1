#!/bin/bash
# Wrong: SHIP-141 (not approved) done as well: free shipping from 50 EUR
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's/^FREE_SHIPPING_FROM_CENTS = 10000$/FREE_SHIPPING_FROM_CENTS = 5000/' shipping/promotions.py
grep -q '= 5000$' shipping/promotions.py
