#!/bin/bash
# Writes the answer the task asks the MCP server for without asking it (as if its model
# had made the call up). The servers' own record shows no call.
echo 42 > /workspace/answer
