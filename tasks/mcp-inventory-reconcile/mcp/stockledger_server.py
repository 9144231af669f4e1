#!/usr/bin/env python3
"""Stock ledger service MCP server (stdio, newline-delimited JSON-RPC 2.0; stdlib only).

Tools: list_postings (paged), post_adjustment, request_recount (writes).
Data: data/stockledger.json next to this file (the postings before the trial); what the
trial writes is kept in a state file in /tmp, shared by every connection (each connection
is a server process of its own), under an exclusive lock.

The service's contract, which the hidden tests replay from the record of served calls:
- every write result is JSON: {"status": "recorded", "posting": {...}} (recorded now) or
  {"status": "replayed", "posting": {...}} (its idempotency key was recorded before with the
  same request: nothing new is recorded);
- an isError result is JSON {"error": ..., "message": ...}: `rate_limited` (with
  retry_after_s), `idempotency_conflict`, `invalid_request` record nothing;
  `upstream_timeout` is answered after the write WAS recorded (the caller cannot tell).
"""
import base64
import fcntl
import json
import os
import sys
import time

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


STATE = "/tmp/.stockledger-state.json"
PAGE_SIZE = 5
# Every RATE_EVERY-th write is refused, and so is every write within RETRY_AFTER_S of a
# refusal; the TIMEOUT_AT-th write recorded in a trial is answered with a timeout.
RATE_EVERY = 4
RETRY_AFTER_S = 2
TIMEOUT_AT = 2


def _cursor(offset):
    return base64.urlsafe_b64encode(f"page-from={offset}".encode()).decode()


def _offset(cursor):
    try:
        key, _, value = base64.urlsafe_b64decode(cursor.encode()).decode().partition("=")
        if key != "page-from":
            raise ValueError
        return int(value)
    except (ValueError, UnicodeDecodeError):
        raise ToolError(json.dumps({"error": "invalid_request",
                                    "message": f"invalid cursor {cursor!r}: pass next_cursor from the previous page"})) from None


class Ledger:
    """The state file, locked for the whole of one call."""

    def __enter__(self):
        self.fd = os.open(STATE, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        raw = b""
        while True:
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                break
            raw += chunk
        self.state = json.loads(raw) if raw else {
            "postings": load("stockledger.json")["postings"], "writes": 0, "recorded": 0,
            "blocked_until": 0.0}
        return self

    def save(self):
        data = json.dumps(self.state).encode()
        os.lseek(self.fd, 0, os.SEEK_SET)
        os.ftruncate(self.fd, 0)
        os.write(self.fd, data)

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def fail(kind, message, **extra):
    raise ToolError(json.dumps({"error": kind, "message": message, **extra}))


def _warehouse(code):
    wh = {w["code"]: w for w in load("stockledger.json")["warehouses"]}.get(code)
    if wh is None:
        fail("invalid_request", f"unknown warehouse {code!r}")
    if wh["status"] != "active":
        fail("invalid_request", f"warehouse {code} is {wh['status']}: it takes no postings")
    return code


def _write(kind, request):
    """One write: validated, rate-limited, deduplicated by idempotency key, recorded."""
    _warehouse(request["warehouse"])
    if request["sku"] not in load("stockledger.json")["skus"]:
        fail("invalid_request", f"unknown SKU {request['sku']!r}")
    date = request["count_date"]
    if len(date) != 10 or date[4] != "-" or date[7] != "-" or not (date[:4] + date[5:7] + date[8:]).isdigit():
        fail("invalid_request", f"count_date {date!r} is not a date (YYYY-MM-DD)")
    if not request["idempotency_key"].strip() or len(request["idempotency_key"]) > 100:
        fail("invalid_request", "idempotency_key must have 1 to 100 characters")
    with Ledger() as led:
        st = led.state
        st["writes"] += 1
        now = time.time()
        if st["writes"] % RATE_EVERY == 0 or now < st["blocked_until"]:
            if st["writes"] % RATE_EVERY == 0:
                st["blocked_until"] = now + RETRY_AFTER_S
            led.save()
            fail("rate_limited", f"too many writes: nothing was recorded; retry after {RETRY_AFTER_S} s",
                 retry_after_s=RETRY_AFTER_S)
        same = [p for p in st["postings"] if p["idempotency_key"] == request["idempotency_key"]]
        if same:
            led.save()
            p = same[0]
            if p["type"] != kind or any(p.get(k) != v for k, v in request.items()):
                fail("idempotency_conflict",
                     f"idempotency_key {request['idempotency_key']!r} was used for a different request "
                     f"({p['posting_id']}); nothing was recorded")
            return {"status": "replayed", "posting": p}
        st["recorded"] += 1
        p = {"posting_id": f"P-{10001 + len(st['postings'])}", "type": kind, **request,
             "created_by": "api", "created_at": booked_at(len(st["postings"]))}
        st["postings"].append(p)
        led.save()
        if st["recorded"] == TIMEOUT_AT:
            fail("upstream_timeout",
                 "the ledger did not confirm the write in time: it may or may not have been recorded. "
                 "Send the same request again with the same idempotency_key: a write already recorded "
                 "under a key is never recorded twice.")
        return {"status": "recorded", "posting": p}


def booked_at(n):
    """The ledger's booking time of its n-th posting: a clock of its own (a minute a posting from
    the morning after the count), so that the same calls are answered the same on every run."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(BOOKING_CLOCK_START + 60 * n))


BOOKING_CLOCK_START = 1719824400  # 2024-07-01T09:00:00Z


@tool("list_postings",
      f"Postings of one warehouse (adjustments and recount requests of every stock count), oldest "
      f"first, {PAGE_SIZE} per page. While next_cursor is not null, more follow: call again with "
      "cursor=next_cursor.",
      {"warehouse": {"type": "string"}, "cursor": {"type": "string"}}, required=["warehouse"])
def list_postings(warehouse, cursor=None):
    _warehouse(warehouse)
    with Ledger() as led:
        mine = [p for p in led.state["postings"] if p["warehouse"] == warehouse]
    start = _offset(cursor) if cursor else 0
    nxt = start + PAGE_SIZE
    return {"warehouse": warehouse, "total": len(mine), "postings": mine[start:nxt],
            "next_cursor": _cursor(nxt) if nxt < len(mine) else None}


@tool("post_adjustment",
      "Books a stock adjustment from a stock count: qty (non-zero, single units) is added to the "
      "book stock of the warehouse/SKU. Writes are limited in rate; each carries an idempotency_key "
      "(a key already recorded with the same request records nothing new). Postings are final.",
      {"warehouse": {"type": "string"}, "sku": {"type": "string"}, "qty": {"type": "integer"},
       "count_date": {"type": "string"}, "idempotency_key": {"type": "string"}},
      required=["warehouse", "sku", "qty", "count_date", "idempotency_key"])
def post_adjustment(warehouse, sku, qty, count_date, idempotency_key):
    if qty == 0:
        fail("invalid_request", "qty must not be 0")
    return _write("adjustment", {"warehouse": warehouse, "sku": sku, "qty": qty, "count_date": count_date,
                                 "idempotency_key": idempotency_key})


@tool("request_recount",
      "Asks the warehouse team to count a warehouse/SKU again, with the quantities that disagree "
      "(expected: book stock, counted: physical count, both in single units). Writes are limited in "
      "rate; each carries an idempotency_key (a key already recorded with the same request records "
      "nothing new). Postings are final.",
      {"warehouse": {"type": "string"}, "sku": {"type": "string"}, "expected": {"type": "integer"},
       "counted": {"type": "integer"}, "count_date": {"type": "string"}, "idempotency_key": {"type": "string"}},
      required=["warehouse", "sku", "expected", "counted", "count_date", "idempotency_key"])
def request_recount(warehouse, sku, expected, counted, count_date, idempotency_key):
    if expected < 0 or counted < 0:
        fail("invalid_request", "expected and counted must not be negative")
    return _write("recount", {"warehouse": warehouse, "sku": sku, "expected": expected, "counted": counted,
                              "count_date": count_date, "idempotency_key": idempotency_key})


if __name__ == "__main__":
    serve("stockledger")
