python3 /nab/mcp-sockets/mcp_call.py oracle get_answer > /workspace/answer
