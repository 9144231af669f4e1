#!/bin/bash
# Oracle: isComplete asked whether ANY active parcel arrived; it must ask whether there is at
# least one active parcel and ALL of them arrived.
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
       "        return !active.isEmpty() && active.stream().allMatch(Parcel::isDelivered);\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
