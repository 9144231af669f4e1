#!/bin/bash
# Control: asks the task's MCP server with the client nab puts beside the sockets.
set -e
python3 /nab/mcp-sockets/mcp_call.py oracle get_answer > /workspace/answer
