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
# Pool names as the connection-pool library numbers them: nothing in a pool's name says
# which datasource it serves (the start-up records of the rotated file do).
LEDGER_POOL, REPORTS_POOL = "HikariPool-2", "HikariPool-1"


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

    def add(self, level, msg, **kv):
        extra = "".join(f" {k}={v}" for k, v in kv.items())
        self.lines.append(f"{ts(self.t)} level={level} svc=payments{extra} msg=\"{msg}\"")
        return len(self.lines)  # 1-based line number

    def tick(self, seconds):
        self.t += datetime.timedelta(seconds=seconds, microseconds=rng.randint(0, 999) * 1000)


def traffic(day, n, busy, pool_max, facts, allow_errors=False):
    waiting = 0
    for i in range(n):
        day.tick(rng.expovariate(1.0 / (2.0 if busy < 0.5 else 0.6)))
        r = rng.random()
        if i % 200 == 0:
            active = min(pool_max, max(1, int(busy * pool_max * 10) if pool_max < 10 else int(busy * 14)))
            day.add("INFO", "pool stats", pool=LEDGER_POOL, active=active, idle=max(0, pool_max - active), waiting=waiting)
        if i % 200 == 100:
            day.add("INFO", "pool stats", pool=REPORTS_POOL, active=1, idle=facts.get("reports_max", 40) - 1, waiting=0)
        if r < 0.02:
            up = rng.choice(UPSTREAMS)
            day.add("INFO", f"retry succeeded after upstream ERROR 503 from {up}", req=req(), attempt=2)
        elif r < 0.05:
            up = rng.choice(UPSTREAMS)
            day.add("WARN", f"slow upstream: {up} {rng.randint(800, 2400)}ms", req=req(), route=route())
        elif r < 0.06:
            day.add("INFO", "error budget ok", slo="charge-availability", burn_rate=f"{rng.random():.2f}")
        elif allow_errors and r < 0.0604:
            # Another error on the same requests' path: not the pool's.
            day.add("ERROR", "CardGatewayException: upstream card-gateway answered 502", req=req(), route="/v1/charge", status=502)
        elif allow_errors and busy > 0.8 and pool_max == 4 and r < 0.06 + facts.setdefault("p_err", 0.0):
            rid = req()
            waiting = rng.randint(20, 60)
            line = day.add("ERROR", f"PoolTimeoutException: no connection available within 5000ms (active=4 waiting={waiting})",
                           req=rid, route="/v1/charge", pool=LEDGER_POOL, status=503)
            facts.setdefault("errors", []).append((line, rid))
            if rng.random() < 0.08:
                # The client retries the same request (same id), and it fails again: one
                # failed request, two records.
                day.tick(rng.uniform(0.2, 1.5))
                line = day.add("ERROR", f"PoolTimeoutException: no connection available within 5000ms (active=4 waiting={waiting})",
                               req=rid, route="/v1/charge", pool=LEDGER_POOL, status=503, attempt=2)
                facts["errors"].append((line, rid))
        else:
            rt = route()
            day.add("INFO", "request done", req=req(), route=rt, status=200, dur_ms=rng.randint(8, 240 if busy < 0.8 else 900))


facts = {}
d1 = Day("2024-07-13T13:00:00")
# The chain the post-mortem must follow: the errors name a pool only by its library number
# (HikariPool-2); the start-up records of the rotated file say that pool is the `ledger`
# datasource's, sized by its profile, and what each profile means; a rollout changed that
# datasource's profile. A rollout that sets the other pool (HikariPool-1, `reporting`) to
# 4 is a decoy for a search for "->4".
d1.add("INFO", "service starting", version="4.18.2")
d1.add("INFO", "pool profiles", standard="'pool_size=40 min_idle=10'", lean="'pool_size=4 min_idle=2'", burst="'pool_size=80 min_idle=20'")
d1.add("INFO", "datasource ready", datasource="ledger", pool=LEDGER_POOL, profile="standard")
d1.add("INFO", "datasource ready", datasource="reporting", pool=REPORTS_POOL, pool_size=40)
d1.add("INFO", "service started", routes=len(ROUTES))
traffic(d1, 4000, 0.6, 40, facts)
d1.add("INFO", "config reloaded", rollout="cfg-rollout-7712", changes="'http.timeout_ms 3000->2500'")
traffic(d1, 2600, 0.6, 40, facts)
facts["reports_max"] = 4
facts["decoy_pool_line"] = d1.add("INFO", "config reloaded", rollout="cfg-rollout-7776", changes="'datasources.reporting.pool_size 40->4'")
traffic(d1, 2600, 0.6, 40, facts)
facts["cause_line"] = d1.add("INFO", "config reloaded", rollout="cfg-rollout-7781", changes="'datasources.ledger.profile standard->lean'")
traffic(d1, 2500, 0.3, 4, facts)
d1.add("INFO", "config reloaded", rollout="cfg-rollout-7790", changes="'feature.fast_refunds false->true'")
traffic(d1, 4300, 0.2, 4, facts)
d2 = Day("2024-07-14T00:00:00")
d2.add("INFO", "log file opened (rotated payments.log -> payments.log.1.gz)")
traffic(d2, 9000, 0.3, 4, facts)
traffic(d2, 6000, 0.6, 4, facts)
facts["decoy_line"] = d2.add("INFO", "config reloaded", rollout="cfg-rollout-7802", changes="'cache.ttl_s 30->300'")
traffic(d2, 1500, 0.7, 4, facts)
facts["p_err"] = 0.012
traffic(d2, 9000, 0.9, 4, facts, allow_errors=True)
facts["p_err"] = 0.02
traffic(d2, 3000, 0.95, 4, facts, allow_errors=True)

with gzip.GzipFile(os.path.join(HERE, "workspace/logs/payments.log.1.gz"), "wb", mtime=0) as f:
    f.write(("\n".join(d1.lines) + "\n").encode())
with open(os.path.join(HERE, "workspace/logs/payments.log"), "w") as f:
    f.write("\n".join(d2.lines) + "\n")
first_sub = next(i for i, l in enumerate(d2.lines, 1) if "ERROR" in l)
assert facts["errors"][0][0] < next(i for i, l in enumerate(d2.lines, 1) if "CardGatewayException" in l), "the first ERROR must be the pool's"
print("first_error:", "payments.log:%d" % facts["errors"][0][0], "request_id:", facts["errors"][0][1])
print("failed_requests:", len({r for _, r in facts["errors"]}), "records:", len(facts["errors"]))
print("root_cause: payments.log.1.gz:%d" % facts["cause_line"], "decoy rollout line:", facts["decoy_line"], "decoy pool line:", facts["decoy_pool_line"], "first ERROR substring line:", first_sub)
print("lines:", len(d1.lines), len(d2.lines))
