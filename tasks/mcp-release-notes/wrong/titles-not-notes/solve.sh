#!/bin/bash
# Wrong: lists PR titles instead of their release notes.
set -euo pipefail
cd /workspace
# The calls the task requires, made through the server's socket (its own record of the calls
# it served is what the harness checks): the tags, and the two backports whose descriptions
# decide whether #205 and #213 shipped.
MCP=/nab/mcp-sockets/mcp_call.py
python3 "$MCP" reviews list_tags > /dev/null
python3 "$MCP" reviews get_pull_request '{"number": 206}' > /dev/null
python3 "$MCP" reviews get_pull_request '{"number": 218}' > /dev/null
python3 /nab/solution/notes.py --titles
