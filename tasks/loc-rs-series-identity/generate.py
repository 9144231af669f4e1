#!/usr/bin/env python3
"""Writes workspace/data/api-2026-03-02.prom, the remote-write receiver's dump of the api
job for 09:00-10:00 UTC on 2 March 2026: six instances scraped every 15 s by the
collector pair's primary; from 09:20 the edge collector scrapes web-3 too (same moments,
same values) and, its `env` relabel template being unset, writes `env=""`. web-5
restarts at 09:41 (its counter starts again from zero). Deterministic: run it again to
get the same bytes."""
import os
import random

T0 = 1_772_442_000_000  # 2026-03-02T09:00:00Z
STEP = 15_000
EDGE_FROM = T0 + 20 * 60_000
RESTART = T0 + 41 * 60_000
rng = random.Random(36)
instances = ["web-%d" % i for i in range(1, 7)]
mem = {i: 900_000_000 + n * 70_000_000 for n, i in enumerate(instances)}
req = {i: 1_000_000 + n * 250_000 for n, i in enumerate(instances)}
lines = ["# remote-write receiver dump, job api, 2026-03-02 09:00-10:00 UTC"]
for k in range(240):
    ts = T0 + k * STEP
    for inst in instances:
        mem[inst] += rng.randint(-3_000_000, 3_000_000)
        if inst == "web-5" and ts == RESTART:
            req[inst] = rng.randint(100, 400)
        else:
            req[inst] += rng.randint(500, 700)
        m = mem[inst] if not (inst == "web-5" and ts >= RESTART) else mem[inst] - 300_000_000
        lines.append('mem_bytes{job="api",instance="%s"} %d %d' % (inst, m, ts))
        lines.append('http_requests_total{job="api",instance="%s"} %d %d' % (inst, req[inst], ts))
        if inst == "web-3" and ts >= EDGE_FROM:
            lines.append('mem_bytes{env="",instance="%s",job="api"} %d %d' % (inst, m, ts))
            lines.append('http_requests_total{env="",instance="%s",job="api"} %d %d' % (inst, req[inst], ts))
here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "workspace", "data", "api-2026-03-02.prom")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
