#!/bin/bash
# Wrong: blames the first served change that lowered the ledger pool's limit (CHG-7744: default 40->36, still far above the 4 the errors show), and restores the 40 it had before that.
# (Written by make_wrongs.py: the oracle with this one hop changed.)
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

def request_of(idx):
    """The request an ERROR at recs[idx] failed: the next access record on its thread."""
    thread = kv(recs[idx][2])["thread"]
    for fn, _, l in recs[idx + 1:]:
        k = kv(l)
        if k["thread"] == thread and msg(l) == "request done":
            return k["req"]

first_i = next(i for i, r in enumerate(recs) if " level=ERROR " in r[2])
first = recs[first_i]
k = kv(first[2])
kind, pool = msg(first[2]).split(":")[0], k["pool"]
size_at_error = int(re.search(r"active=(\d+)", msg(first[2])).group(1))
failed = {request_of(i) for i, (_, _, l) in enumerate(recs)
          if " level=ERROR " in l and msg(l).startswith(kind + ":") and kv(l).get("pool") == pool}

presets, db_conf, thread_db, pool_db = {}, {}, {}, {}
for _, _, l in recs:
    m, k = msg(l), kv(l)
    if m == "service started":
        break
    if m == "preset loaded":
        name = k.pop("name")
        presets[name] = {a: b for a, b in k.items() if a != "thread"}
    elif m == "binding database":
        thread_db[k["thread"]] = k["db"]
        db_conf[k["db"]] = {a: b for a, b in k.items() if a not in ("thread", "db")}
    elif re.fullmatch(r"HikariPool-\d+ - Starting\.\.\.", m):
        pool_db[m.split(" ")[0]] = thread_db[k["thread"]]
db = pool_db[pool]

def resolve(preset, key):
    p = presets[preset]
    if key in p:
        return p[key]
    return resolve(p["base"], key) if "base" in p else None

def size(d):
    c = db_conf[d]
    return int(c["max_active"]) if "max_active" in c else int(resolve(c["preset"], "max_active"))

# Edits by revision (fetched), and the change id each revision was fetched as.
edits, change_of = {}, {}
for _, _, l in recs:
    k = kv(l)
    if k.get("thread") != "cfg-sync":
        continue
    if msg(l).startswith("fetched"):
        change_of[k["rev"]] = k["ticket"]
    elif msg(l).startswith("edit "):
        key, old, new = re.fullmatch(r"edit ([^:]+): (.*) -> (.*)", msg(l)).groups()
        edits.setdefault(k["rev"], []).append((key, new))

def apply(rev):
    for key, new in edits[rev]:
        parts = key.split(".")
        if parts[0] == "db":
            db_conf.setdefault(parts[1], {})[parts[2]] = new
        elif parts[0] == "presets":
            presets.setdefault(parts[1], {})[parts[2]] = new

served = lambda l: re.fullmatch(r"now serving ([0-9a-f]+) \(was [0-9a-f]+\)", msg(l))
cause = None
for r in recs[:first_i]:
    m = served(r[2]) if " thread=cfg-sync " in r[2] else None
    if not m:
        continue
    before = size(db)
    apply(m.group(1))
    if size(db) != before and cause is None:
        cause, rev, restore = r, m.group(1), before
assert size(db) == size_at_error, (db, size(db))
# The remediation: the database's own max_active would do (the scripted trajectory writes
# that); the oracle gives the value to the preset it uses now (every later change served),
# which no other database uses, so that validation exercises the other right form too.
for r in recs[first_i + 1:]:
    m = served(r[2]) if " thread=cfg-sync " in r[2] else None
    if m:
        apply(m.group(1))
now = db_conf[db]["preset"]
assert "max_active" not in db_conf[db] and not any(
    c.get("preset") == now for d, c in db_conf.items() if d != db), now
print(f"first_error: {first[0]}:{first[1]}")
print(f"request_id: {request_of(first_i)}")
print(f"failed_requests: {len(failed)}")
print(f"root_cause: {cause[0]}:{cause[1]}")
print(f"rollout: {change_of[rev]}")
print(f"remediation: db.{db}.max_active={restore}")
PY
cat /workspace/ANSWER.txt
