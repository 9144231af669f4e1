#!/bin/bash
# Wrong: works around the symptom in the resolver and names it; DeliveryPolicy.isComplete stays wrong.
set -euo pipefail
cd /workspace
printf 'src/main/java/com/acme/orders/fulfilment/StatusResolver.java::resolve\n' > ANSWER.txt
python3 - <<'PY'

p = "src/main/java/com/acme/orders/fulfilment/StatusResolver.java"
s = open(p).read()
old = "        if (policy.isComplete(order)) return OrderStatus.DELIVERED;\n        if (policy.anyDelivered(order)) return OrderStatus.PARTIALLY_DELIVERED;\n"
new = ("        if (policy.anyDelivered(order) && order.parcels().stream().anyMatch(p -> !p.isDelivered() && !p.isCancelled()))\n"
       "            return OrderStatus.PARTIALLY_DELIVERED;\n"
       "        if (policy.isComplete(order)) return OrderStatus.DELIVERED;\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
