"""Oracle: resolves orders-api/production through the configsvc MCP server (every layer of
the inheritance chain) and pins every secret it references through the vault MCP server
(the deploy role from configsvc; moves followed to their end; every page of versions read,
the highest enabled version pinned), handling the vault's errors (an expired token: log in
again; rate limited: wait retry_after_s; transient: retry). It rewrites the managed part of
config/production.env. It speaks MCP itself, one connection per server, through the
sockets nab names in /nab/mcp-sockets/servers.json.

Flags reproduce the known-wrong variants; each still makes every call the task requires
where it can, so it fails on the tests."""
import json
import socket
import sys
import time

SERVICE, ENV = "orders-api", "production"
MARKER = "# --- local (not managed by configsvc; keep as is) ---"
SOCKETS = "/nab/mcp-sockets/servers.json"
PATH = "/workspace/config/production.env"
flags = set(sys.argv[1:])


class Server:
    def __init__(self, name):
        with open(SOCKETS, encoding="utf-8") as f:
            path = json.load(f)["mcpServers"][name]["socket"]
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        self.stream = sock.makefile("rwb")
        self.next_id = 0
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "oracle", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.stream.write((json.dumps(msg) + "\n").encode())
        self.stream.flush()

    def rpc(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.stream.readline()
            if not line:
                sys.exit(f"the server closed the connection during {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    sys.exit(f"{method}: {reply['error']}")
                return reply["result"]

    def call(self, tool, **args):
        """(ok, parsed JSON text of the result)."""
        result = self.rpc("tools/call", {"name": tool, "arguments": args})
        text = "".join(c.get("text", "") for c in result.get("content", []))
        return not result.get("isError"), json.loads(text)


class GaveUp(Exception):
    pass


configsvc = Server("configsvc")
vault = Server("vault")

ok, services = configsvc.call("list_services")
role = next(s for s in services if s["service"] == SERVICE)["vault_roles"][ENV]
chain, layer = [], ENV
while layer:
    ok, env = configsvc.call("get_config", service=SERVICE, layer=layer)
    assert ok, env
    chain.append(env)
    layer = env["inherits"]
if "--top-layer-only" in flags:
    chain = chain[:1]

token = None


def login():
    global token
    ok, out = vault.call("login", role=role)
    assert ok, out
    token = out["token"]


def vcall(tool, **args):
    """A vault call, retried through every error that says how; (ok, result)."""
    while True:
        ok, out = vault.call(tool, token=token, **args)
        if ok:
            return True, out
        code = out["error"]
        if "--stop-at-error" in flags or ("--stale-on-error" in flags and code != "MOVED"):
            raise GaveUp(code)
        if code in ("TOKEN_EXPIRED", "UNAUTHENTICATED"):
            login()
        elif code == "RATE_LIMITED":
            time.sleep(out["retry_after_s"] + 0.2)
        elif code == "UNAVAILABLE":
            continue
        else:
            return False, out


def pin(ref):
    """`NAME@VERSION` for the secret the config calls `ref`."""
    name = ref
    if "--latest" in flags:
        while True:
            ok, meta = vcall("describe_secret", name=name)
            if "moved_to" not in meta:
                return f"{name}@{meta['current_version']}"
            name = meta["moved_to"]
    page, enabled = 1, []
    while page:
        ok, out = vcall("list_versions", name=name, page=page)
        if not ok:
            assert out["error"] == "MOVED", out
            name, page, enabled = out["moved_to"], 1, []
            continue
        enabled += [v["version"] for v in out["versions"] if v["state"] == "enabled"]
        page = None if "--first-page" in flags else out["next_page"]
    shown = ref if "--keep-ref-name" in flags else name
    return f"{shown}@{max(enabled)}"


lines = open(PATH, encoding="utf-8").read().splitlines()
cut = lines.index(MARKER)
old = dict(line.split("=", 1) for line in lines[:cut] if "=" in line and not line.startswith("#"))

values, secrets = {}, {}
for env in reversed(chain):
    for e in env["entries"]:
        if e.get("unset"):
            if "--ignore-unset" not in flags:
                values.pop(e["key"], None)
        elif e.get("secret"):
            values[e["key"]] = None
            secrets[e["key"]] = e["ref"]
        else:
            values[e["key"]] = e["value"]

login()
stopped = False
for key in sorted(values):
    if values[key] is not None:
        continue
    ref = secrets[key]
    if "--no-vault" in flags or stopped:
        values[key] = "${secret:%s}" % ref
        continue
    try:
        values[key] = "${secret:%s}" % pin(ref)
    except GaveUp:
        if "--stop-at-error" in flags:
            stopped = True
            values[key] = "${secret:%s}" % ref
        else:
            values[key] = old.get(key, "${secret:%s}" % ref)

if "--keep-stale" in flags:
    for k, v in old.items():
        values.setdefault(k, v)
header = [
    "# orders-api environment for production.",
    f"# configsvc: {SERVICE}/{ENV} version {chain[0]['version']}",
    "# Managed keys below are generated from the config service; do not hand-edit them.",
]
out = header + [f"{k}={values[k]}" for k in sorted(values)] + lines[cut:]
open(PATH, "w", encoding="utf-8").write("\n".join(out) + "\n")
