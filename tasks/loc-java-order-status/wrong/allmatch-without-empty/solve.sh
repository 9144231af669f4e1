#!/bin/bash
# Wrong: allMatch on an empty stream is true, so an order whose parcels were all cancelled is "delivered".
set -euo pipefail
cd /workspace
printf 'src/main/java/com/acme/orders/fulfilment/DeliveryPolicy.java::isComplete\n' > ANSWER.txt
python3 - <<'PY'

p = "src/main/java/com/acme/orders/fulfilment/DeliveryPolicy.java"
s = open(p).read()
old = ("    public boolean isComplete(Order order) {\n"
       "        for (Parcel parcel : activeParcels(order)) {\n"
       "            if (parcel.isDelivered()) return true;\n"
       "        }\n"
       "        return false;\n")
new = "    public boolean isComplete(Order order) {\n        return activeParcels(order).stream().allMatch(Parcel::isDelivered);\n"
assert old in s
open(p, "w").write(s.replace(old, new))
PY
