"""Oracle: resolves orders-api/production from the fixture data (the same data the MCP
server serves) and rewrites the managed part of config/production.env."""
import json
import sys

SERVICE, ENV = "orders-api", "production"
MARKER = "# --- local (not managed by configsvc; keep as is) ---"
skip_unset = "--ignore-unset" in sys.argv
only_top = "--top-layer-only" in sys.argv
keep_stale = "--keep-stale" in sys.argv

envs = json.load(open("/nab/mcp/data/configs.json"))["services"][SERVICE]["environments"]
chain, layer = [], ENV
while layer:
    chain.append(envs[layer])
    layer = None if only_top else envs[layer]["inherits"]
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
    f"# configsvc: {SERVICE}/{ENV} version {envs[ENV]['version']}",
    "# Managed keys below are generated from the config service; do not hand-edit them.",
]
out = header + [f"{k}={values[k]}" for k in sorted(values)] + lines[cut:]
open(path, "w").write("\n".join(out) + "\n")
