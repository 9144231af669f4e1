#!/bin/bash
# Wrong: the product owner's decision (a) missed: the heavy surcharge still by actual weight
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/surcharges=surcharges_for(parcel, billable)/surcharges=surcharges_for(parcel, parcel.weight_g)/' shipping/quote.py
grep -q 'surcharges_for(parcel, parcel.weight_g)' shipping/quote.py
