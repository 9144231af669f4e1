#!/bin/bash
# Wrong: the product owner's decision (a) missed: the heavy surcharge still by actual weight
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's/surcharges=surcharges_for(parcel, billable)/surcharges=surcharges_for(parcel, parcel.weight_g)/' shipping/quote.py
grep -q 'surcharges_for(parcel, parcel.weight_g)' shipping/quote.py
