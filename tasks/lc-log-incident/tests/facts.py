"""Prints the incident facts the agent wrote in /workspace/ANSWER.txt, one `key: value` line
per fact in a fixed order (the first value given for a key; backticks around a line and a
`logs/` prefix on a location and spaces around a remediation's `=` are allowed forms), `key: (missing)` for a fact not given. The
harness compares this, on the host, with expected/facts.txt (the values pinned from
generate.py), which never enters a container. It runs as the verifier user, which cannot
read the workspace: ANSWER.txt is read through the broker, as the sandbox user, and only as
a regular file (not a link).

The remediation is printed as what it does, not as it is spelled: the instruction asks for
a setting that gives the failing pool back its connections and changes nothing else, and
more than one key does that (the datasource's own `pool_size`, or the `pool_size` of a
profile in its chain that no other pool uses, below the one that sets it). The setting is
applied to the configuration as the logs leave it (CONFIG, below: the start-up records with
every config rollout of both files replayed), each datasource's effective settings are
resolved (its own value, else its profile's, else along `extends`), and what changed is
printed, e.g. `remediation: <datasource>.pool_size <old>-><new>`. CONFIG is the service's
state, which the agent reads in the same logs: it names no answer."""
import copy
import io
import re
import sys

import nabverify as nv

KEYS = ["first_error", "request_id", "failed_requests", "root_cause", "rollout", "remediation"]
LOCATIONS = {"first_error", "root_cause"}

# The configuration now (generate.py: the `pool profile` and `initializing datasource`
# records, then every `config reloaded` change, in order, over both files).
CONFIG = {
    "profiles": {
        "default": {"pool_size": "36", "min_idle": "10", "max_lifetime_ms": "1800000"},
        "slim": {"extends": "default", "min_idle": "3"},
        "burst": {"extends": "default", "pool_size": "80", "min_idle": "20"},
        "sidecar": {"extends": "slim", "pool_size": "4", "max_lifetime_ms": "600000"},
        "sidecar-v2": {"extends": "sidecar", "min_idle": "1"},
    },
    "datasources": {
        "ledger": {"profile": "sidecar-v2"},
        "reporting": {"profile": "default", "pool_size": "4"},
        "audit": {"profile": "burst"},
    },
}
POOL_SETTINGS = ("pool_size", "min_idle", "max_lifetime_ms")


def effective(config):
    """{datasource: {setting: value}}: its profile, and each pool setting resolved."""
    out = {}
    for ds in CONFIG["datasources"]:
        own = config["datasources"][ds]
        eff = {"profile": own.get("profile")}
        for setting in POOL_SETTINGS:
            value, profile, seen = own.get(setting), own.get("profile"), set()
            while value is None and profile is not None and profile not in seen:
                seen.add(profile)
                p = config["profiles"].get(profile, {})
                value, profile = p.get(setting), p.get("extends")
            eff[setting] = value
        out[ds] = eff
    return out


def remediation_effect(value):
    m = re.fullmatch(r"(datasources|profiles)\.([A-Za-z0-9_-]+)\.([a-z_]+)=(\S+)", value)
    if not m:
        return f"not one setting: {value}"
    section, name, setting, new = m.groups()
    new = str(int(new)) if re.fullmatch(r"[0-9]+", new) else new
    allowed = POOL_SETTINGS + (("profile",) if section == "datasources" else ("extends",))
    if setting not in allowed:
        return f"not a setting of the configuration: {value}"
    before = effective(CONFIG)
    config = copy.deepcopy(CONFIG)
    config[section].setdefault(name, {})[setting] = new
    after = effective(config)
    changes = [f"{ds}.{k} {before.get(ds, {}).get(k)}->{v}"
               for ds in sorted(after) for k, v in after[ds].items() if before.get(ds, {}).get(k) != v]
    return ", ".join(changes) if changes else f"no effect: {value}"


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
        value = remediation_effect(re.sub(r"\s*=\s*", "=", value))
    sys.stdout.write(f"{key}: {value}\n")
