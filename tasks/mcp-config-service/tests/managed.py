"""Prints the managed section of config/production.env normalized: its `# configsvc:` header
lines, then its settings (non-empty, non-comment lines) sorted. The harness compares this, on
the host, with expected/managed.env (orders-api's effective production config), which never
enters a container."""
import sys

MARKER = "# --- local (not managed by configsvc; keep as is) ---"

with open("/workspace/config/production.env", encoding="utf-8", errors="replace") as f:
    lines = f.read().splitlines()
if MARKER not in lines:
    sys.exit("the local-section marker line is gone")
managed = lines[: lines.index(MARKER)]
for line in managed:
    if line.startswith("# configsvc:"):
        sys.stdout.write(line + "\n")
for line in sorted(l for l in managed if l.strip() and not l.lstrip().startswith("#")):
    sys.stdout.write(line + "\n")
