"""What the task's MCP servers share (stdio, newline-delimited JSON-RPC 2.0; stdlib only):
the tool registry, argument checks and the serving loop."""
import json
import os
import sys

PROTOCOL_VERSION = "2025-06-18"
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


class ToolError(Exception):
    """A failure the caller can fix (bad id, bad filter): returned as an isError result."""


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


TOOLS = {}


def tool(name, description, properties, required=()):
    """Registers a tool; `properties` is a JSON-schema properties object."""
    def register(fn):
        TOOLS[name] = {
            "fn": fn,
            "spec": {"name": name, "description": description,
                     "inputSchema": {"type": "object", "properties": properties,
                                     "required": list(required), "additionalProperties": False}},
        }
        return fn
    return register


def load(name):
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as f:
        return json.load(f)


JSON_TYPES = {"string": str, "integer": int, "boolean": bool, "object": dict, "array": list}


def check_args(spec, args):
    schema = spec["inputSchema"]
    if not isinstance(args, dict):
        raise RpcError(-32602, "arguments must be an object")
    for key in schema["required"]:
        if key not in args:
            raise RpcError(-32602, f"{spec['name']}: missing required argument '{key}'")
    for key, value in args.items():
        prop = schema["properties"].get(key)
        if prop is None:
            raise RpcError(-32602, f"{spec['name']}: unknown argument '{key}' (known: {', '.join(sorted(schema['properties']))})")
        want = JSON_TYPES[prop["type"]]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise RpcError(-32602, f"{spec['name']}: argument '{key}' must be of type {prop['type']}")
        if "enum" in prop and value not in prop["enum"]:
            raise RpcError(-32602, f"{spec['name']}: argument '{key}' must be one of {prop['enum']}")


def handle(msg, server_name):
    method = msg.get("method")
    params = msg.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": PROTOCOL_VERSION, "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": server_name, "version": "1.0.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [TOOLS[name]["spec"] for name in sorted(TOOLS)]}
    if method == "tools/call":
        name = params.get("name")
        if name not in TOOLS:
            raise RpcError(-32602, f"unknown tool '{name}' (known: {', '.join(sorted(TOOLS))})")
        args = params.get("arguments") or {}
        check_args(TOOLS[name]["spec"], args)
        try:
            result = TOOLS[name]["fn"](**args)
        except ToolError as e:
            return {"content": [{"type": "text", "text": str(e)}], "isError": True}
        text = result if isinstance(result, str) else json.dumps(result, indent=2, ensure_ascii=False)
        return {"content": [{"type": "text", "text": text}], "isError": False}
    raise RpcError(-32601, f"method not found: {method}")


def serve(server_name):
    """MCP over stdio: one JSON-RPC 2.0 message per line in, one per line out."""
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as e:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": f"parse error: {e}"}}
        else:
            if not isinstance(msg, dict) or "method" not in msg:
                if isinstance(msg, dict) and "id" in msg and ("result" in msg or "error" in msg):
                    continue  # a response to a request we never sent: ignore
                reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "invalid request"}}
            elif "id" not in msg:
                continue  # notification (e.g. notifications/initialized): no reply
            else:
                try:
                    reply = {"jsonrpc": "2.0", "id": msg["id"], "result": handle(msg, server_name)}
                except RpcError as e:
                    reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": e.code, "message": e.message}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
