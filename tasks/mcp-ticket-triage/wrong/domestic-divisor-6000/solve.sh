#!/bin/bash
# Wrong: SHIP-145 (undecided) done as well: divisor 6000 for DOMESTIC
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
python3 - <<'PY'
p = "shipping/billable.py"; t = open(p).read()
t = t.replace("def volumetric_weight_g(parcel):", "def volumetric_weight_g(parcel, zone=None):")
t = t.replace("    per_step = VOLUMETRIC_DIVISOR_CM3_PER_KG * VOLUMETRIC_STEP_G",
              "    per_step = (6000 if zone == 'DOMESTIC' else VOLUMETRIC_DIVISOR_CM3_PER_KG) * VOLUMETRIC_STEP_G")
t = t.replace("def billable_weight_g(parcel):", "def billable_weight_g(parcel, zone=None):")
t = t.replace("volumetric_weight_g(parcel))", "volumetric_weight_g(parcel, zone))")
open(p, "w").write(t)
p = "shipping/quote.py"; t = open(p).read()
t = t.replace("    billable = billable_weight_g(parcel)\n", "    billable = billable_weight_g(parcel, zone)\n")
open(p, "w").write(t)
PY
grep -q 'billable_weight_g(parcel, zone)' shipping/quote.py
