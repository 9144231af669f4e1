"""Oracle: resolves orders-api/production through the configsvc MCP server (every layer of
the inheritance chain fetched with the socket client nab puts beside the servers' sockets,
the calls the task requires) and rewrites the managed part of config/production.env.
Flags reproduce the known-wrong variants; each still fetches every layer, so it fails on
the tests, not on a missing call."""
import json
import subprocess
import sys

SERVICE, ENV = "orders-api", "production"
MARKER = "# --- local (not managed by configsvc; keep as is) ---"
MCP_CALL = "/nab/mcp-sockets/mcp_call.py"
skip_unset = "--ignore-unset" in sys.argv
only_top = "--top-layer-only" in sys.argv
keep_stale = "--keep-stale" in sys.argv


def get_config(layer):
    out = subprocess.run(["python3", MCP_CALL, "configsvc", "get_config",
                          json.dumps({"service": SERVICE, "layer": layer})],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


chain, layer = [], ENV
while layer:
    env = get_config(layer)
    chain.append(env)
    layer = env["inherits"]
if only_top:
    chain = chain[:1]
values = {}
for env in reversed(chain):
    for e in env["entries"]:
        if e.get("unset"):
            if not skip_unset:
                values.pop(e["key"], None)
        elif e.get("secret"):
            values[e["key"]] = "${secret:%s}" % e["ref"]
        else:
            values[e["key"]] = e["value"]

path = "/workspace/config/production.env"
lines = open(path).read().splitlines()
cut = lines.index(MARKER)
if keep_stale:
    for line in lines[:cut]:
        if "=" in line and not line.startswith("#"):
            values.setdefault(line.split("=", 1)[0], line.split("=", 1)[1])
header = [
    "# orders-api environment for production.",
    f"# configsvc: {SERVICE}/{ENV} version {chain[0]['version']}",
    "# Managed keys below are generated from the config service; do not hand-edit them.",
]
out = header + [f"{k}={values[k]}" for k in sorted(values)] + lines[cut:]
open(path, "w").write("\n".join(out) + "\n")
