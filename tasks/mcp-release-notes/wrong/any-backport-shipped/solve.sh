#!/bin/bash
# Wrong: treats every backported PR as shipped, so it also drops #213, whose backport #218
# was merged into release-2.3 after v2.3.1 and has not been released.
set -euo pipefail
cd /workspace
# The calls the task requires, made through the server's socket (its own record of the calls
# it served is what the harness checks): the tags, and the two backports whose descriptions
# decide whether #205 and #213 shipped.
MCP=/nab/mcp-sockets/mcp_call.py
python3 "$MCP" reviews list_tags > /dev/null
python3 "$MCP" reviews get_pull_request '{"number": 206}' > /dev/null
python3 "$MCP" reviews get_pull_request '{"number": 218}' > /dev/null
python3 /nab/solution/notes.py --any-backport-shipped
