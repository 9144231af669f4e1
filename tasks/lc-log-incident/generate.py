#!/usr/bin/env python3
"""Generates the payments service logs (workspace/logs) deterministically and prints the
facts the hidden test pins. Run: python3 generate.py"""
import datetime
import gzip
import os
import random

rng = random.Random(7781)
HERE = os.path.dirname(os.path.abspath(__file__))
ROUTES = [("/v1/charge", 0.55), ("/v1/refund", 0.1), ("/v1/status", 0.3), ("/v1/webhook", 0.05)]
UPSTREAMS = ["fraud-check", "ledger", "card-gateway", "fx-rates"]
# Pool names as the connection-pool library numbers them, in the order the pools start:
# nothing in a pool's record says which datasource it serves. Only the start-up records,
# correlated by thread (two init threads, three datasources, interleaved), do.
REPORTS_POOL, LEDGER_POOL, AUDIT_POOL = "HikariPool-1", "HikariPool-2", "HikariPool-3"


def req():
    return "r-%08x" % rng.getrandbits(32)


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
    def __init__(self, start):
        self.lines = []
        self.t = datetime.datetime.fromisoformat(start)

    def add(self, level, msg, thread="main", **kv):
        extra = "".join(f" {k}={v}" for k, v in kv.items())
        self.lines.append(f"{ts(self.t)} level={level} svc=payments thread={thread}{extra} msg=\"{msg}\"")
        return len(self.lines)  # 1-based line number

    def tick(self, seconds):
        self.t += datetime.timedelta(seconds=seconds, microseconds=rng.randint(0, 999) * 1000)


def http():
    return "http-%d" % rng.randint(1, 24)


def pool_error(day, facts, rid, waiting, attempt=None):
    kv = dict(req=rid, route="/v1/charge", pool=LEDGER_POOL, status=503)
    if attempt:
        kv["attempt"] = attempt
    line = day.add("ERROR", f"PoolTimeoutException: no connection available within 5000ms (active=4 waiting={waiting})",
                   thread=http(), **kv)
    facts.setdefault("errors", []).append((day.name, line, rid))


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
            day.add("INFO", f"retry succeeded after upstream ERROR 503 from {rng.choice(UPSTREAMS)}", thread=http(), req=req(), attempt=2)
        elif r < 0.05:
            day.add("WARN", f"slow upstream: {rng.choice(UPSTREAMS)} {rng.randint(800, 2400)}ms", thread=http(), req=req(), route=route())
        elif r < 0.06:
            day.add("INFO", "error budget ok", thread="slo", slo="charge-availability", burn_rate=f"{rng.random():.2f}")
        elif p_err and r < 0.0604:
            # Another error on the same requests' path: not the pool's.
            day.add("ERROR", "CardGatewayException: upstream card-gateway answered 502", thread=http(), req=req(), route="/v1/charge", status=502)
        elif p_err and r < 0.0604 + p_err:
            rid, waiting = req(), rng.randint(20, 60)
            pool_error(day, facts, rid, waiting)
            if rng.random() < 0.08:
                # The client retries the same request (same id), and it fails again: one
                # failed request, two records.
                day.tick(rng.uniform(0.2, 1.5))
                pool_error(day, facts, rid, waiting, attempt=2)
        else:
            day.add("INFO", "request done", thread=http(), req=req(), route=route(), status=200,
                    dur_ms=rng.randint(8, 900 if p_err else 240))


def reload(day, rollout, change):
    return day.add("INFO", "config reloaded", thread="config-watcher", rollout=rollout, changes=f"'{change}'")


facts = {}
d1 = Day("2024-07-13T13:00:00")
d1.name = "payments.log.1.gz"
d1.add("INFO", "service starting", version="4.18.2")
# Profiles inherit: a profile's own values override its parent's. `slim` sounds small but
# keeps default's pool_size; `sidecar` (below slim) is the one that sets 4.
d1.add("INFO", "pool profile", name="default", pool_size=40, min_idle=10, max_lifetime_ms=1800000)
d1.add("INFO", "pool profile", name="slim", extends="default", min_idle=2)
d1.add("INFO", "pool profile", name="burst", extends="default", pool_size=80, min_idle=20)
d1.add("INFO", "pool profile", name="sidecar", extends="slim", pool_size=4, max_lifetime_ms=600000)
d1.add("INFO", "pool profile", name="sidecar-v2", extends="sidecar", min_idle=1)
d1.tick(0.2)
d1.add("INFO", "initializing datasource", thread="ds-init-1", datasource="ledger", profile="default")
d1.add("INFO", "initializing datasource", thread="ds-init-2", datasource="reporting", profile="default", pool_size=40)
d1.tick(0.1)
d1.add("INFO", "HikariPool-1 - Starting...", thread="ds-init-2")
d1.add("INFO", "schema migrations up to date", thread="main", schema_version=212)
d1.tick(0.3)
d1.add("INFO", "HikariPool-1 - Start completed.", thread="ds-init-2")
d1.add("INFO", "initializing datasource", thread="ds-init-2", datasource="audit", profile="burst")
d1.tick(0.2)
d1.add("INFO", "HikariPool-2 - Starting...", thread="ds-init-1")
d1.add("INFO", "HikariPool-3 - Starting...", thread="ds-init-2")
d1.tick(0.4)
d1.add("INFO", "HikariPool-2 - Start completed.", thread="ds-init-1")
d1.add("INFO", "cache warm-up done", thread="main", entries=18211)
d1.add("INFO", "HikariPool-3 - Start completed.", thread="ds-init-2")
d1.tick(0.1)
d1.add("INFO", "datasource ready", thread="ds-init-2")
d1.add("INFO", "datasource ready", thread="ds-init-1")
d1.add("INFO", "service started", routes=len(ROUTES), datasources=3)
traffic(d1, 1500, 2.0, facts)
reload(d1, "cfg-rollout-7712", "http.timeout_ms 3000->2500")
traffic(d1, 1200, 2.0, facts)
# Before the cause: the default profile's size changes, so the ledger pool had 36
# connections (not the 40 of the start-up records) just before the cause.
facts["default_line"] = reload(d1, "cfg-rollout-7744", "profiles.default.pool_size 40->36")
traffic(d1, 1200, 2.0, facts)
facts["decoy_pool_line"] = reload(d1, "cfg-rollout-7776", "datasources.reporting.pool_size 40->4")
traffic(d1, 1200, 2.0, facts)
facts["first_ledger_line"] = reload(d1, "cfg-rollout-7779", "datasources.ledger.profile default->slim")
traffic(d1, 1200, 2.0, facts)
facts["cause_line"] = reload(d1, "cfg-rollout-7781", "datasources.ledger.profile slim->sidecar")
traffic(d1, 1200, 2.0, facts)
reload(d1, "cfg-rollout-7783", "profiles.slim.min_idle 2->3")
traffic(d1, 900, 2.0, facts)
facts["last_ledger_line"] = reload(d1, "cfg-rollout-7785", "datasources.ledger.profile sidecar->sidecar-v2")
traffic(d1, 1500, 2.0, facts)
facts["latest_line"] = reload(d1, "cfg-rollout-7790", "feature.fast_refunds false->true")
traffic(d1, 0, 2.0, facts, until=datetime.datetime.fromisoformat("2024-07-13T23:12:00"))
# Saturday night's surge: the first errors, up to midnight.
traffic(d1, 0, 0.6, facts, p_err=0.01, until=datetime.datetime.fromisoformat("2024-07-13T23:59:52"))
# Requests whose first attempt fails before midnight and whose retry fails after it:
# one request each, one record in each file.
span = [req() for _ in range(3)]
for rid in span:
    d1.tick(0.9)
    pool_error(d1, facts, rid, rng.randint(20, 60))
assert d1.t < datetime.datetime.fromisoformat("2024-07-14T00:00:00"), d1.t
d2 = Day("2024-07-14T00:00:00")
d2.name = "payments.log"
d2.add("INFO", "log file opened (rotated payments.log -> payments.log.1.gz)", thread="logrotate")
for rid in span:
    d2.tick(0.6)
    pool_error(d2, facts, rid, rng.randint(20, 60), attempt=2)
traffic(d2, 1200, 0.6, facts, p_err=0.01)
traffic(d2, 9000, 2.0, facts)
facts["sunday_line"] = reload(d2, "cfg-rollout-7802", "cache.ttl_s 30->300")
traffic(d2, 4000, 1.2, facts)
traffic(d2, 7000, 0.6, facts, p_err=0.012)
traffic(d2, 3000, 0.55, facts, p_err=0.02)

with gzip.GzipFile(os.path.join(HERE, "workspace/logs/payments.log.1.gz"), "wb", mtime=0) as f:
    f.write(("\n".join(d1.lines) + "\n").encode())
with open(os.path.join(HERE, "workspace/logs/payments.log"), "w") as f:
    f.write("\n".join(d2.lines) + "\n")
errs = facts["errors"]
first_card = next(i for i, l in enumerate(d1.lines, 1) if "CardGatewayException" in l)
assert errs[0][0] == "payments.log.1.gz" and errs[0][1] < first_card, "the first ERROR must be the pool's"
assert not any(" level=ERROR " in l for l in d1.lines[:errs[0][1] - 1])
cur = [e for e in errs if e[0] == "payments.log"]
old = [e for e in errs if e[0] != "payments.log"]
print("first_error: %s:%d request_id: %s" % errs[0])
print("failed_requests:", len({r for *_, r in errs}), "records:", len(errs),
      "per-file distinct sum:", len({r for *_, r in cur}) + len({r for *_, r in old}),
      "payments.log only:", len({r for *_, r in cur}))
print("first error in payments.log: %s:%d %s" % cur[0])
print("root_cause: payments.log.1.gz:%d" % facts["cause_line"], "remediation: datasources.ledger.pool_size=36")
print({k: v for k, v in facts.items() if k.endswith("_line")})
print("lines:", len(d1.lines), len(d2.lines))
