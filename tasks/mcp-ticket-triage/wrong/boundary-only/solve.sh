#!/bin/bash
# Wrong: only part 1 of SHIP-142: inclusive band limits (the cheapest reading of the ticket)
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
sed -i 's/^## Unreleased$/## Unreleased\n- Band limits are inclusive (SHIP-142)./' CHANGELOG.md
