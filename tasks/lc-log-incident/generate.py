#!/usr/bin/env python3
"""Generates the payments service logs (workspace/logs) deterministically and prints the
facts the hidden test pins. Run: python3 generate.py

What the material hides, hop by hop (none of it greppable from the instruction's words):
- the first ERROR names no request: its request is the one whose access record ("request
  done", one per request, written on the worker thread when the request completes) comes
  next on the same thread; other threads' records come in between;
- 503s come from two errors (the pool's and an open circuit) and from load shedding (no
  error at all; one between the first error and its request), so status=503 over-counts
  and the first 503 after the first error is another request's;
- the pool is a number (HikariPool-N): its database is found by the start-up thread that
  started it (two init threads, three databases, interleaved);
- the configuration's history is in two parts: a change is fetched (its id, a revision, and
  its edits, one record each) long before it is served ("now serving <rev>"), another
  change is served in between, and one fetched change is withdrawn and never served;
- connection limits (max_active) resolve through presets and their `base`."""
import datetime
import gzip
import os
import random

rng = random.Random(7781)
HERE = os.path.dirname(os.path.abspath(__file__))
ROUTES = [("/v1/charge", 0.55), ("/v1/refund", 0.1), ("/v1/status", 0.3), ("/v1/webhook", 0.05)]
UPSTREAMS = ["fraud-check", "ledger", "card-gateway", "fx-rates"]
REPORTS_POOL, LEDGER_POOL, AUDIT_POOL = "HikariPool-1", "HikariPool-2", "HikariPool-3"
THREADS = ["http-%d" % i for i in range(1, 25)]


def req():
    return "r-%08x" % rng.getrandbits(32)


def rev():
    return "%07x" % rng.getrandbits(28)


def route():
    x, acc = rng.random(), 0
    for r, p in ROUTES:
        acc += p
        if x < acc:
            return r
    return ROUTES[-1][0]


def ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


class Day:
    def __init__(self, name, start):
        self.name = name
        self.lines = []
        self.t = datetime.datetime.fromisoformat(start)

    def add(self, level, msg, thread="main", **kv):
        extra = "".join(f" {k}={v}" for k, v in kv.items())
        self.lines.append(f"{ts(self.t)} level={level} svc=payments thread={thread}{extra} msg=\"{msg}\"")
        return len(self.lines)  # 1-based line number

    def tick(self, seconds):
        self.t += datetime.timedelta(seconds=seconds, microseconds=rng.randint(0, 999) * 1000)


def done(day, thread, rid, status, dur, route_="/v1/charge", attempt=None):
    kv = dict(req=rid, route=route_, status=status, dur_ms=dur)
    if attempt:
        kv["attempt"] = attempt
    return day.add("INFO", "request done", thread=thread, **kv)


def filler(day, avoid):
    """A record of another thread, between an error and its request's access record."""
    t = rng.choice([x for x in THREADS if x != avoid])
    day.tick(rng.uniform(0.01, 0.2))
    done(day, t, req(), 200, rng.randint(8, 900), route())


def failing(day, facts, kind, rid, attempt=None, gap=None):
    """An ERROR on a worker thread (no request id), then, after 1-3 records of other threads,
    the access record of the request it failed, on the same thread."""
    t = rng.choice(THREADS)
    if kind == "pool":
        line = day.add("ERROR", "PoolTimeoutException: no connection available within 5000ms "
                       f"(active=4 waiting={rng.randint(20, 60)})", thread=t, route="/v1/charge", pool=LEDGER_POOL)
    else:
        line = day.add("ERROR", "CircuitOpenException: fx-rates circuit open", thread=t, route="/v1/charge")
    for _ in range(gap if gap is not None else rng.randint(1, 3)):
        filler(day, t)
    day.tick(rng.uniform(0.01, 0.1))
    done(day, t, rid, 503, rng.randint(5001, 5040) if kind == "pool" else rng.randint(2, 9), attempt=attempt)
    if kind == "pool":
        facts.setdefault("errors", []).append((day.name, line, rid))
    else:
        facts.setdefault("circuit", []).append(rid)


def traffic(day, n, mean_s, facts, p_err=0.0, until=None):
    """n records (or until the clock passes `until`). Pool stats never show a pool's
    capacity, only active and waiting: light traffic keeps the ledger pool under 4
    connections whatever its size; only the surges (p_err > 0) saturate it."""
    i = 0
    while (until is None and i < n) or (until is not None and day.t < until):
        day.tick(rng.expovariate(1.0 / mean_s))
        r = rng.random()
        if i % 200 == 0:
            if p_err:
                day.add("INFO", "pool stats", thread="housekeeper", pool=LEDGER_POOL, active=4, waiting=rng.randint(8, 60))
            else:
                day.add("INFO", "pool stats", thread="housekeeper", pool=LEDGER_POOL, active=rng.randint(1, 3), waiting=0)
        if i % 200 == 70:
            day.add("INFO", "pool stats", thread="housekeeper", pool=REPORTS_POOL, active=1, waiting=0)
        if i % 200 == 140:
            day.add("INFO", "pool stats", thread="housekeeper", pool=AUDIT_POOL, active=rng.randint(0, 2), waiting=0)
        i += 1
        if r < 0.02:
            day.add("INFO", f"retry succeeded after upstream ERROR 503 from {rng.choice(UPSTREAMS)}", thread=rng.choice(THREADS), req=req(), attempt=2)
        elif r < 0.05:
            day.add("WARN", f"slow upstream: {rng.choice(UPSTREAMS)} {rng.randint(800, 2400)}ms", thread=rng.choice(THREADS), req=req(), route=route())
        elif r < 0.06:
            day.add("INFO", "error budget ok", thread="slo", slo="charge-availability", burn_rate=f"{rng.random():.2f}")
        elif p_err and r < 0.0604:
            # Another error on the same requests' path, not a 503 and not the pool's.
            t = rng.choice(THREADS)
            day.add("ERROR", "CardGatewayException: upstream card-gateway answered 502", thread=t, route="/v1/charge")
            filler(day, t)
            done(day, t, req(), 502, rng.randint(300, 900))
        elif p_err and r < 0.0604 + p_err * 0.25:
            # Another 503: the fx-rates circuit, not the pool.
            failing(day, facts, "circuit", req())
        elif p_err and r < 0.0604 + p_err * 1.25:
            rid = req()
            failing(day, facts, "pool", rid)
            if rng.random() < 0.08:
                # The client retries the same request (same id), and it fails again: one
                # failed request, two errors.
                day.tick(rng.uniform(0.2, 1.5))
                failing(day, facts, "pool", rid, attempt=2)
        else:
            done(day, rng.choice(THREADS), req(), 200, rng.randint(8, 900 if p_err else 240), route())


class Cfg:
    """The configuration agent: a change is fetched (id, revision, edits) and later served."""
    def __init__(self, day, facts):
        self.day, self.facts, self.serving, self.revs = day, facts, rev(), {}

    def fetch(self, change, *edits):
        r = rev()
        self.revs[change] = r
        self.day.tick(0.3)
        line = self.day.add("INFO", "fetched, awaiting approval", thread="cfg-sync", ticket=change, rev=r, edits=len(edits))
        for e in edits:
            self.day.tick(0.01)
            self.day.add("INFO", f"edit {e}", thread="cfg-sync", rev=r)
        self.facts[f"fetch_{change}"] = (self.day.name, line)
        return line

    def serve(self, change):
        r = self.revs[change]
        self.day.tick(0.4)
        line = self.day.add("INFO", f"now serving {r} (was {self.serving})", thread="cfg-sync")
        self.serving = r
        self.facts[f"serve_{change}"] = (self.day.name, line)
        self.facts[f"rev_{change}"] = r
        return line

    def withdraw(self, change):
        self.day.tick(0.4)
        return self.day.add("WARN", f"{self.revs[change]} withdrawn, never served", thread="cfg-sync")


facts = {}
d1 = Day("payments.log.1.gz", "2024-07-13T13:00:00")
d1.add("INFO", "service starting", version="4.18.2")
# Presets inherit: a preset's own values override its base's. `slim` sounds small but keeps
# default's max_active; `sidecar` (below slim) is the one that sets 4.
d1.add("INFO", "preset loaded", name="default", max_active=40, min_idle=10, ttl_ms=1800000)
d1.add("INFO", "preset loaded", name="slim", base="default", min_idle=2)
d1.add("INFO", "preset loaded", name="burst", base="default", max_active=80, min_idle=20)
d1.add("INFO", "preset loaded", name="sidecar", base="slim", max_active=4, ttl_ms=600000)
d1.add("INFO", "preset loaded", name="sidecar-v2", base="sidecar", min_idle=1)
d1.add("INFO", "access log: one record per request attempt (request done), written on the worker thread that served it when it completes")
d1.tick(0.2)
d1.add("INFO", "binding database", thread="ds-init-1", db="ledger", preset="default")
d1.add("INFO", "binding database", thread="ds-init-2", db="reporting", preset="default", max_active=40)
d1.tick(0.1)
d1.add("INFO", "HikariPool-1 - Starting...", thread="ds-init-2")
d1.add("INFO", "schema migrations up to date", thread="main", schema_version=212)
d1.tick(0.3)
d1.add("INFO", "HikariPool-1 - Start completed.", thread="ds-init-2")
d1.add("INFO", "binding database", thread="ds-init-2", db="audit", preset="burst")
d1.tick(0.2)
d1.add("INFO", "HikariPool-2 - Starting...", thread="ds-init-1")
d1.add("INFO", "HikariPool-3 - Starting...", thread="ds-init-2")
d1.tick(0.4)
d1.add("INFO", "HikariPool-2 - Start completed.", thread="ds-init-1")
d1.add("INFO", "cache warm-up done", thread="main", entries=18211)
d1.add("INFO", "HikariPool-3 - Start completed.", thread="ds-init-2")
d1.tick(0.1)
d1.add("INFO", "database ready", thread="ds-init-2")
d1.add("INFO", "database ready", thread="ds-init-1")
cfg = Cfg(d1, facts)
d1.add("INFO", f"now serving {cfg.serving}", thread="cfg-sync")
d1.add("INFO", "service started", routes=len(ROUTES), databases=3)
traffic(d1, 900, 2.0, facts)
cfg.fetch("CHG-7712", "http.timeout_ms: 3000 -> 2500")
traffic(d1, 300, 2.0, facts)
cfg.serve("CHG-7712")
traffic(d1, 700, 2.0, facts)
# Before the cause: the default preset's limit changes, so the ledger pool had 36
# connections (not the 40 of the start-up records) just before the cause.
cfg.fetch("CHG-7744", "presets.default.max_active: 40 -> 36", "presets.burst.min_idle: 20 -> 16")
traffic(d1, 500, 2.0, facts)
cfg.serve("CHG-7744")
traffic(d1, 700, 2.0, facts)
cfg.fetch("CHG-7776", "db.reporting.max_active: 40 -> 4")
traffic(d1, 400, 2.0, facts)
cfg.fetch("CHG-7779", "db.ledger.preset: default -> slim")
traffic(d1, 400, 2.0, facts)
cfg.serve("CHG-7776")
traffic(d1, 500, 2.0, facts)
# Fetched before the cause and never served: had it been, it would have cut the ledger pool.
cfg.fetch("CHG-7780", "db.ledger.max_active: (unset) -> 4")
traffic(d1, 300, 2.0, facts)
# The cause is fetched here and served only after another change is.
cfg.fetch("CHG-7781", "db.ledger.preset: slim -> sidecar")
traffic(d1, 500, 2.0, facts)
cfg.serve("CHG-7779")
traffic(d1, 600, 2.0, facts)
cfg.withdraw("CHG-7780")
traffic(d1, 500, 2.0, facts)
cfg.serve("CHG-7781")
traffic(d1, 700, 2.0, facts)
cfg.fetch("CHG-7783", "presets.slim.min_idle: 2 -> 3")
traffic(d1, 300, 2.0, facts)
cfg.serve("CHG-7783")
traffic(d1, 600, 2.0, facts)
cfg.fetch("CHG-7785", "db.ledger.preset: sidecar -> sidecar-v2")
traffic(d1, 300, 2.0, facts)
cfg.serve("CHG-7785")
traffic(d1, 900, 2.0, facts)
cfg.fetch("CHG-7790", "feature.fast_refunds: false -> true")
traffic(d1, 300, 2.0, facts)
cfg.serve("CHG-7790")
traffic(d1, 0, 2.0, facts, until=datetime.datetime.fromisoformat("2024-07-13T23:12:00"))
# Saturday night's surge: the first errors, up to midnight. The very first is a pool error
# whose access record comes after another thread's request record.
d1.tick(1.3)
failing(d1, facts, "pool", req(), gap=2)
traffic(d1, 0, 0.6, facts, p_err=0.01, until=datetime.datetime.fromisoformat("2024-07-13T23:59:52"))
# Requests whose first attempt fails before midnight and whose retry fails after it:
# one request each, one error in each file.
span = [req() for _ in range(3)]
for rid in span:
    d1.tick(0.5)
    failing(d1, facts, "pool", rid, gap=1)
assert d1.t < datetime.datetime.fromisoformat("2024-07-14T00:00:00"), d1.t
d2 = Day("payments.log", "2024-07-14T00:00:00")
d2.add("INFO", "log file opened (rotated payments.log -> payments.log.1.gz)", thread="logrotate")
for rid in span:
    d2.tick(0.6)
    failing(d2, facts, "pool", rid, attempt=2)
traffic(d2, 1200, 0.6, facts, p_err=0.01)
traffic(d2, 9000, 2.0, facts)
cfg.day = d2
cfg.fetch("CHG-7802", "cache.ttl_s: 30 -> 300")
traffic(d2, 400, 2.0, facts)
cfg.serve("CHG-7802")
traffic(d2, 4000, 1.2, facts)
traffic(d2, 7000, 0.6, facts, p_err=0.012)
traffic(d2, 3000, 0.55, facts, p_err=0.02)

# Load shedding: 503s that no ERROR precedes (a WARN, then the access record, on a worker
# thread with no error pending), from the first error on. One comes between the first error
# and its request's access record, so the first status=503 after it is another request's.
# Their own generator and the stamp of the record before them: the records above stay as
# they were, and the first error and the changes keep their lines.
shed_rng = random.Random(503)


def shed(lines, at):
    busy = set()
    for l in lines[:at]:
        t = l.split(" thread=", 1)[1].split(" ", 1)[0]
        if " level=ERROR " in l:
            busy.add(t)
        elif 'msg="request done"' in l:
            busy.discard(t)
    t = shed_rng.choice([x for x in THREADS if x not in busy])
    rid = "r-%08x" % shed_rng.getrandbits(32)
    stamp = lines[at - 1].split(" ", 1)[0]
    lines[at:at] = [
        f"{stamp} level=WARN svc=payments thread={t} req={rid} route=/v1/charge "
        f"msg=\"shedding load: {shed_rng.randint(130, 190)} requests in flight\"",
        f"{stamp} level=INFO svc=payments thread={t} req={rid} route=/v1/charge status=503 "
        f"dur_ms={shed_rng.randint(0, 2)} msg=\"request done\""]


first_err = facts["errors"][0][1]  # 1-based; its access record comes 3 records later (gap=2)
assert f" req={facts['errors'][0][2]} " in d1.lines[first_err + 2]
d1_at = [first_err + 2] + shed_rng.sample(range(first_err + 3, len(d1.lines)), 5)
d2_at = shed_rng.sample(range(1, len(d2.lines)), 18)
for at in sorted(d1_at, reverse=True):
    shed(d1.lines, at)
for at in sorted(d2_at, reverse=True):
    shed(d2.lines, at)

with gzip.GzipFile(os.path.join(HERE, "workspace/logs/payments.log.1.gz"), "wb", mtime=0) as f:
    f.write(("\n".join(d1.lines) + "\n").encode())
with open(os.path.join(HERE, "workspace/logs/payments.log"), "w") as f:
    f.write("\n".join(d2.lines) + "\n")
errs = facts["errors"]
first_any = next(i for i, l in enumerate(d1.lines, 1) if " level=ERROR " in l)
assert errs[0][0] == "payments.log.1.gz" and errs[0][1] == first_any, "the first ERROR must be the pool's"
nxt = next(l for l in d1.lines[first_any:] if " req=" in l)
assert f" req={errs[0][2]} " not in nxt, "the next request record must be another request's"
first503 = next(l for l in d1.lines[first_any:] if " status=503 " in l)
assert f" req={errs[0][2]} " not in first503, "the next 503 must be another request's"
cur = [e for e in errs if e[0] == "payments.log"]
old = [e for e in errs if e[0] != "payments.log"]
all503 = {r for *_, r in errs} | set(facts["circuit"])
print("first_error: %s:%d request_id: %s" % errs[0])
print("failed_requests:", len({r for *_, r in errs}), "errors:", len(errs),
      "per-file distinct sum:", len({r for *_, r in cur}) + len({r for *_, r in old}),
      "payments.log only:", len({r for *_, r in cur}), "all 503:", len(all503))
print("root_cause: %s:%d" % facts["serve_CHG-7781"], "rollout: CHG-7781 or", facts["rev_CHG-7781"],
      "remediation: db.ledger.max_active=36")
print({k: v for k, v in facts.items() if k.startswith(("fetch_", "serve_"))})
print("lines:", len(d1.lines), len(d2.lines))
print("REVISIONS =", {cfg.revs[c]: c for c in sorted(cfg.revs)})
