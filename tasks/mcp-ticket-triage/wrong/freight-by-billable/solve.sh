#!/bin/bash
# Wrong: decision (b) missed: a billable weight over 31.5 kg refused as freight
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/    base = band_price(zone, min(billable, MAX_PARCEL_WEIGHT_G))/    base = band_price(zone, billable)/' shipping/quote.py
grep -q 'band_price(zone, billable)$' shipping/quote.py
