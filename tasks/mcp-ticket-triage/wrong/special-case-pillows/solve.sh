#!/bin/bash
# Wrong: the band fix plus the reported 40x30x30 box priced as 7.2 kg, nothing general
set -euo pipefail
cd /workspace
# The tracker, read as the task requires (the open shipping tickets, SHIP-142 whole, and the
# decision it names), through the client nab places beside the MCP servers' sockets: the
# required calls are judged from the servers' own record, for every agent.
for call in 'list_tickets {"status": "open", "component": "shipping"}' 'get_ticket {"id": "SHIP-142"}' \
            'get_ticket {"id": "SHIP-131"}'; do
  python3 /nab/mcp-sockets/mcp_call.py tracker ${call%% *} "${call#* }" >/dev/null
done
sed -i 's/        if weight_g < up_to_g:/        if weight_g <= up_to_g:/' shipping/rates.py
python3 - <<'PY'
p = "shipping/quote.py"; t = open(p).read()
t = t.replace("    base = band_price(zone, parcel.weight_g)\n",
              "    weight = 7200 if parcel.sides_cm == (40, 30, 30) else parcel.weight_g\n    base = band_price(zone, weight)\n")
open(p, "w").write(t)
PY
sed -i 's/^## Unreleased$/## Unreleased\n- Band limits are inclusive; bulky parcels (SHIP-142)./' CHANGELOG.md
