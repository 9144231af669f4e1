#!/bin/bash
# Wrong: every other fact right, but the remediation undoes the root cause by switching the
# ledger datasource back to the profile it used before it (slim): 36 connections again, but
# the pool's profile changes, which the instruction rules out.
# (The oracle's derivation of every fact, then this remediation.)
set -euo pipefail
cd /workspace/logs
python3 - <<'PY' > /workspace/ANSWER.txt
import gzip, re

def kv(line):
    return dict(re.findall(r" ([a-z_]+)=('[^']*'|[^ ]+)", line.split(' msg="')[0]))

recs = []
with gzip.open("payments.log.1.gz", "rt") as f:
    recs += [("payments.log.1.gz", i, l.rstrip("\n")) for i, l in enumerate(f, 1)]
with open("payments.log") as f:
    recs += [("payments.log", i, l.rstrip("\n")) for i, l in enumerate(f, 1)]
msg = lambda l: re.search(r'msg="(.*)"$', l).group(1)

first = next(r for r in recs if " level=ERROR " in r[2])
k = kv(first[2])
kind, pool = msg(first[2]).split(":")[0], k["pool"]
size_at_error = int(re.search(r"active=(\d+)", msg(first[2])).group(1))
failed = {kv(l)["req"] for _, _, l in recs
          if " level=ERROR " in l and msg(l).startswith(kind + ":") and kv(l).get("pool") == pool}

profiles, ds_conf, thread_ds, pool_ds = {}, {}, {}, {}
for _, _, l in recs:
    m, k = msg(l), kv(l)
    if m == "service started":
        break
    if m == "pool profile":
        name = k.pop("name")
        profiles[name] = {a: b for a, b in k.items()}
    elif m == "initializing datasource":
        thread_ds[k["thread"]] = k["datasource"]
        ds_conf[k["datasource"]] = {a: b for a, b in k.items() if a not in ("thread", "datasource")}
    elif re.fullmatch(r"HikariPool-\d+ - Starting\.\.\.", m):
        pool_ds[m.split(" ")[0]] = thread_ds[k["thread"]]
ds = pool_ds[pool]

def resolve(profile, key):
    p = profiles[profile]
    if key in p:
        return p[key]
    return resolve(p["extends"], key) if "extends" in p else None

def size(d):
    c = ds_conf[d]
    return int(c["pool_size"]) if "pool_size" in c else int(resolve(c["profile"], "pool_size"))

cause = None
for r in recs:
    if r == first:
        break
    if msg(r[2]) != "config reloaded":
        continue
    before = size(ds)
    for change in kv(r[2])["changes"].strip("'").split(","):
        key, _, val = change.strip().partition(" ")
        old, new = val.split("->")
        parts = key.split(".")
        if parts[0] == "datasources":
            ds_conf.setdefault(parts[1], {})[parts[2]] = new
        elif parts[0] == "profiles":
            profiles.setdefault(parts[1], {})[parts[2]] = new
    if size(ds) != before:
        cause, restore = r, before
assert size(ds) == size_at_error, (ds, size(ds))
for r in recs[recs.index(first) + 1:]:
    if msg(r[2]) == "config reloaded":
        for change in kv(r[2])["changes"].strip("'").split(","):
            key, _, val = change.strip().partition(" ")
            parts = key.split(".")
            if parts[0] == "datasources":
                ds_conf.setdefault(parts[1], {})[parts[2]] = val.split("->")[1]
now = ds_conf[ds]["profile"]
assert "pool_size" not in ds_conf[ds] and not any(
    c.get("profile") == now for d, c in ds_conf.items() if d != ds), now
print(f"first_error: {first[0]}:{first[1]}")
print(f"request_id: {kv(first[2])['req']}")
print(f"failed_requests: {len(failed)}")
print(f"root_cause: {cause[0]}:{cause[1]}")
print(f"rollout: {kv(cause[2])['rollout']}")
print(f"remediation: datasources.{ds}.profile=slim")
PY
cat /workspace/ANSWER.txt
