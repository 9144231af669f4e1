"""Calls one tool of a task's MCP server and prints its result (stdlib only).

nab puts this file beside the servers' sockets, so any agent can use it:

    python3 /nab/mcp-sockets/mcp_call.py SERVER TOOL ['{"json": "arguments"}']

It connects to SERVER's socket (named in servers.json beside it), initializes the session,
calls TOOL, and prints the result's text content (or, with --json, the whole result). It
exits 1 when the server answers with an error or the result says `isError`.
"""

import argparse
import json
import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL_VERSION = "2025-06-18"


def rpc(stream, message):
    stream.write((json.dumps(message) + "\n").encode())
    stream.flush()
    if "id" not in message:
        return None
    while True:
        line = stream.readline()
        if not line:
            raise SystemExit("mcp_call: the server closed the connection")
        reply = json.loads(line)
        if reply.get("id") == message["id"]:
            return reply


def main():
    parser = argparse.ArgumentParser(prog="mcp_call.py")
    parser.add_argument("server")
    parser.add_argument("tool")
    parser.add_argument("arguments", nargs="?", default="{}")
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    opts = parser.parse_args()
    with open(os.path.join(HERE, "servers.json"), encoding="utf-8") as f:
        servers = json.load(f)["mcpServers"]
    if opts.server not in servers:
        raise SystemExit("mcp_call: no server %r (servers: %s)" % (opts.server, ", ".join(sorted(servers))))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(servers[opts.server]["socket"])
    stream = sock.makefile("rwb")
    init = rpc(stream, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
        "clientInfo": {"name": "mcp_call", "version": "1"}}})
    if "error" in init:
        raise SystemExit("mcp_call: initialize failed: %s" % init["error"])
    rpc(stream, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    reply = rpc(stream, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": opts.tool, "arguments": json.loads(opts.arguments)}})
    if "error" in reply:
        print(json.dumps(reply["error"]), file=sys.stderr)
        return 1
    result = reply.get("result", {})
    if opts.json:
        print(json.dumps(result))
    else:
        for item in result.get("content", []):
            if item.get("type") == "text":
                print(item.get("text", ""))
    return 1 if result.get("isError") else 0


if __name__ == "__main__":
    sys.exit(main())
