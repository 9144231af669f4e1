#!/bin/bash
# Wrong: SHIP-141 (not approved) done as well: free shipping from 50 EUR
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/^FREE_SHIPPING_FROM_CENTS = 10000$/FREE_SHIPPING_FROM_CENTS = 5000/' shipping/promotions.py
grep -q '= 5000$' shipping/promotions.py
