#!/bin/bash
# Wrong (the cheapest shortcut): the order counts as delivered when its first active parcel
# has arrived. That fixes the demo (TRK-2 arrives before TRK-1, the first parcel) but not an
# order whose first parcel arrives before the others.
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
new = ("    public boolean isComplete(Order order) {\n"
       "        List<Parcel> active = activeParcels(order);\n"
       "        return !active.isEmpty() && active.get(0).isDelivered();\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
