#!/bin/bash
# Wrong: decision (b) missed: a billable weight over 31.5 kg refused as freight
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's/    base = band_price(zone, min(billable, MAX_PARCEL_WEIGHT_G))/    base = band_price(zone, billable)/' shipping/quote.py
grep -q 'band_price(zone, billable)$' shipping/quote.py
