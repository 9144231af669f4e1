"""Prints the incident facts the agent wrote in /workspace/ANSWER.txt, one `key: value` line
per fact in a fixed order (the first value given for a key; backticks around a line and a
`logs/` prefix on a location and spaces around a remediation's `=` are allowed forms), `key: (missing)` for a fact not given. The
harness compares this, on the host, with expected/facts.txt (the values pinned from
generate.py), which never enters a container. It runs as the verifier user, which cannot
read the workspace: ANSWER.txt is read through the broker, as the sandbox user, and only as
a regular file (not a link).

The rollout is printed as the change id: a change is logged with its id and the revision it
was fetched as, and either names it (REVISIONS, below: every change of both files).

The remediation is printed as what it does, not as it is spelled: the instruction asks for
a setting that gives the failing pool back its connections and changes nothing else, and
more than one key does that (the database's own `max_active`, or the `max_active` of a
preset in its chain that no other database uses, below the one that sets it). The setting is
applied to the configuration as the logs leave it (CONFIG, below: the start-up records with
every served change of both files replayed), each database's effective settings are
resolved (its own value, else its preset's, else along `base`), and what changed is
printed, e.g. `remediation: <database>.max_active <old>-><new>`. CONFIG and REVISIONS are
the service's state and history, which the agent reads in the same logs: they name no
answer."""
import copy
import io
import re
import sys

import nabverify as nv

KEYS = ["first_error", "request_id", "failed_requests", "root_cause", "rollout", "remediation"]
LOCATIONS = {"first_error", "root_cause"}

# The configuration now (generate.py: the `preset loaded` and `binding database` records,
# then the edits of every served revision, in the order served, over both files).
CONFIG = {
    "presets": {
        "default": {"max_active": "36", "min_idle": "10", "ttl_ms": "1800000"},
        "slim": {"base": "default", "min_idle": "3"},
        "burst": {"base": "default", "max_active": "80", "min_idle": "16"},
        "sidecar": {"base": "slim", "max_active": "4", "ttl_ms": "600000"},
        "sidecar-v2": {"base": "sidecar", "min_idle": "1"},
    },
    "db": {
        "ledger": {"preset": "sidecar-v2"},
        "reporting": {"preset": "default", "max_active": "4"},
        "audit": {"preset": "burst"},
    },
}
POOL_SETTINGS = ("max_active", "min_idle", "ttl_ms")
# Every change the logs fetch: {revision: change id}.
REVISIONS = {
    "9bea587": "CHG-7712", "3cca295": "CHG-7744", "91121e1": "CHG-7776", "d56b221": "CHG-7779",
    "45e40e2": "CHG-7780", "f0af6af": "CHG-7781", "db9695c": "CHG-7783", "dea23ff": "CHG-7785",
    "3d17b1b": "CHG-7790", "eeaa95e": "CHG-7802",
}


def effective(config):
    """{database: {setting: value}}: its preset, and each pool setting resolved."""
    out = {}
    for ds in CONFIG["db"]:
        own = config["db"][ds]
        eff = {"preset": own.get("preset")}
        for setting in POOL_SETTINGS:
            value, preset, seen = own.get(setting), own.get("preset"), set()
            while value is None and preset is not None and preset not in seen:
                seen.add(preset)
                p = config["presets"].get(preset, {})
                value, preset = p.get(setting), p.get("base")
            eff[setting] = value
        out[ds] = eff
    return out


def remediation_effect(value):
    m = re.fullmatch(r"(db|presets)\.([A-Za-z0-9_-]+)\.([a-z_]+)=(\S+)", value)
    if not m:
        return f"not one setting: {value}"
    section, name, setting, new = m.groups()
    new = str(int(new)) if re.fullmatch(r"[0-9]+", new) else new
    allowed = POOL_SETTINGS + (("preset",) if section == "db" else ("base",))
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
    elif key == "rollout":
        value = REVISIONS.get(value, value)
    elif key == "remediation":
        value = remediation_effect(re.sub(r"\s*=\s*", "=", value))
    sys.stdout.write(f"{key}: {value}\n")
