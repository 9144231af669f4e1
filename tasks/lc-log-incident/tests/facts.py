"""Prints the incident facts the agent wrote in /workspace/ANSWER.txt, one `key: value` line
per fact in a fixed order (the first value given for a key; backticks around a line and a
`logs/` prefix on a location and spaces around a remediation's `=` are allowed forms), `key: (missing)` for a fact not given. The
harness compares this, on the host, with expected/facts.txt (the values pinned from
generate.py), which never enters a container. It runs as the verifier user, which cannot
read the workspace: ANSWER.txt is read through the broker, as the sandbox user, and only as
a regular file (not a link)."""
import io
import re
import sys

import nabverify as nv

KEYS = ["first_error", "request_id", "failed_requests", "root_cause", "rollout", "remediation"]
LOCATIONS = {"first_error", "root_cause"}

data = nv.read("/workspace/ANSWER.txt")
if data is None:
    sys.exit("ANSWER.txt is missing or not a regular file")
found = {}
with io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace") as f:
    for line in f:
        line = line.strip().strip("`")
        m = re.fullmatch(r"([a-z_]+)\s*:\s*(.+)", line)
        if m:
            found.setdefault(m.group(1), m.group(2).strip())
for key in KEYS:
    value = found.get(key)
    if value is None:
        value = "(missing)"
    elif key in LOCATIONS:
        value = value.removeprefix("logs/")
    elif key == "remediation":
        value = re.sub(r"\s*=\s*", "=", value)
    sys.stdout.write(f"{key}: {value}\n")
