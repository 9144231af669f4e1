"""Prints the managed section of config/production.env normalized: its `# configsvc:` header
lines, then its settings (non-empty, non-comment lines) sorted. The harness compares this, on
the host, with expected/managed.env (orders-api's effective production config), which never
enters a container. It runs as the verifier user, which cannot read the workspace: the file
is read through the broker, as the sandbox user, and only as a regular file (not a link)."""
import io
import sys

import nabverify as nv

MARKER = "# --- local (not managed by configsvc; keep as is) ---"

data = nv.read("/workspace/config/production.env")
if data is None:
    sys.exit("config/production.env is missing or not a regular file")
with io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace") as f:
    lines = f.read().splitlines()
if MARKER not in lines:
    sys.exit("the local-section marker line is gone")
managed = lines[: lines.index(MARKER)]
for line in managed:
    if line.startswith("# configsvc:"):
        sys.stdout.write(line + "\n")
for line in sorted(l for l in managed if l.strip() and not l.lstrip().startswith("#")):
    sys.stdout.write(line + "\n")
