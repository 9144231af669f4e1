"""A one-tool MCP server (stdio, newline-delimited JSON-RPC 2.0): get_answer -> 42."""
import json
import sys

TOOL = {"name": "get_answer", "description": "The answer.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False}}

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method = msg.get("method")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "oracle", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call" and msg["params"].get("name") == "get_answer":
        result = {"content": [{"type": "text", "text": "42"}], "isError": False}
    else:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "unknown"}}
        print(json.dumps(reply), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
