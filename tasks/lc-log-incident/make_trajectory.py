#!/usr/bin/env python3
"""Writes trajectory.yaml (the scripted model's play) deterministically; its summaries answer
the summary requests the 12k window makes nab-agent send. Run: python3 make_trajectory.py"""
import yaml
FACTS = ["first ERROR payments.log:16723, request r-b6d425a0, PoolTimeoutException on HikariPool-2 (active=4)",
         "182 such records, 164 distinct requests (18 retried and failed twice): failed_requests 164; 2 CardGatewayException are another error",
         "HikariPool-2 appears in payments.log only in pool stats (active=4 all Sunday) and errors",
         "rotated start-up: HikariPool-2 = datasource ledger, profile standard; profiles standard 40, lean 4, burst 80; HikariPool-1 = reporting, 40",
         "reloads: 4046 7712 http.timeout_ms; 6673 7776 reporting.pool_size 40->4; 9300 7781 ledger.profile standard->lean; 11826 7790 feature flag; payments.log 15152 7802 cache.ttl_s",
         "HikariPool-2 active=8 idle=32 up to line 9300, active=4 idle=0 after it: root cause payments.log.1.gz:9300, cfg-rollout-7781"]


FACTS_SH = r'''#!/bin/bash
# Derives the post-mortem facts from logs/. The chain: the first level=ERROR record (not
# a line that merely mentions ERROR) names the exhausted pool only by its number; the
# start-up records at the top of the rotated file say which datasource owns that pool and
# that its size comes from a profile; the root cause is the last config reload before
# Sunday that changed that datasource (its profile), not a reload of another pool that
# happens to mention the same size, and not the latest reload before the errors.
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 ' level=ERROR ' payments.log)
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
kind=$(sed -E 's/.*msg="([A-Za-z]+Exception).*/\1/' <<<"$first")
pool=$(sed -E 's/.* pool=([^ ]+) .*/\1/' <<<"$first")
# requests, not records: a retried request keeps its id
count=$(grep ' level=ERROR ' payments.log | grep "msg=\"$kind" | grep " pool=$pool " \
        | sed -E 's/.* req=([^ ]+) .*/\1/' | sort -u | wc -l)
# the pool's datasource, from the start-up records of the rotated file
ds=$(zcat payments.log.1.gz | grep 'msg="datasource ready"' | grep " pool=$pool " \
     | sed -E 's/.* datasource=([^ ]+) .*/\1/')
cause=$(zcat payments.log.1.gz | grep -n 'msg="config reloaded"' | grep "datasources\.$ds\." | tail -1)
echo "first_error: payments.log:${first%%:*}"
echo "request_id: $req"
echo "failed_requests: $count"
echo "root_cause: payments.log.1.gz:${cause%%:*}"
echo "rollout: $(sed -E 's/.* rollout=([^ ]+) .*/\1/' <<<"$cause")"
'''


def notes(n):
    """What a careful agent restates under a small window: the facts found so far."""
    return " Notes so far: " + "; ".join(FACTS[:n]) + "."


def sh(c, cmd): return {"content": c, "tool_calls": [{"name": "execute_command", "arguments": {"command": cmd}}]}
turns = [
 sh("Let me see what logs there are and how big they are.",
    "ls -1 logs && wc -c logs/* && wc -l logs/payments.log && zcat logs/payments.log.1.gz | wc -l && head -3 logs/payments.log"),
 sh("The first record at level ERROR (not just any line containing the word), with the records just before it:",
    "n=$(grep -n -m1 ' level=ERROR ' logs/payments.log | cut -d: -f1); echo \"first ERROR at line $n\"; sed -n \"$((n-10)),$((n+2))p\" logs/payments.log | cut -c1-200"),
 sh("Line 16723: PoolTimeoutException on pool HikariPool-2 (active=4), request r-b6d425a0. Which ERROR kinds are there, and how often does each failing request id occur (a retried request keeps its id)?",
    "grep ' level=ERROR ' logs/payments.log | sed -E 's/.*msg=\"([A-Za-z]+).*/\\1/' | sort | uniq -c; "
    "grep ' level=ERROR ' logs/payments.log | grep 'msg=\"PoolTimeoutException' | grep ' pool=HikariPool-2 ' | sed -E 's/.* req=([^ ]+) .*/\\1/' | sort | uniq -c | awk '{print $1}' | sort | uniq -c; "
    "grep ' level=ERROR ' logs/payments.log | grep 'msg=\"PoolTimeoutException' | grep ' pool=HikariPool-2 ' | sed -E 's/.* req=([^ ]+) .*/\\1/' | sort -u | wc -l"),
 sh("182 PoolTimeoutException records on HikariPool-2 but 164 distinct requests (18 were retried and failed twice); the 2 CardGatewayException records are another error. failed_requests is 164. Nothing in the name HikariPool-2 says what it serves: what the current file says about it besides pool stats and errors, and how its stats ran on Sunday:" + notes(2),
    "grep 'HikariPool-2' logs/payments.log | grep -v 'msg=\"pool stats\"' | grep -vc ' level=ERROR '; grep -n 'msg=\"pool stats\"' logs/payments.log | grep HikariPool-2 | awk 'NR%8==1' | cut -c1-130 | head -12"),
 sh("Sunday's file only has stats and errors for it, always at active=4. The rotated file starts with the service start-up; the records that are not traffic:" + notes(3),
    "zcat logs/payments.log.1.gz | grep -vn 'msg=\"request done\"\\|msg=\"pool stats\"\\|msg=\"slow upstream\\|msg=\"retry succeeded\\|msg=\"error budget ok\"' | cut -c1-240; grep -n 'msg=\"config reloaded\"' logs/payments.log"),
 sh("HikariPool-2 is the `ledger` datasource's pool, sized by its profile (standard at start-up); the profiles are standard = pool_size=40, lean = pool_size=4, burst = 80. HikariPool-1 is `reporting`, pool_size=40. Reloads: 7712 (http.timeout_ms), 7776 (datasources.reporting.pool_size 40->4: HikariPool-1, not the failing pool), 7781 (datasources.ledger.profile standard->lean), 7790 (feature flag), and Sunday's 7802 (cache.ttl_s). The pool stats of both pools between 7776 (line 6673) and 7790 (line 11826), to see which reload cut HikariPool-2 to 4:" + notes(4),
    "zcat logs/payments.log.1.gz | grep -n 'msg=\"pool stats\"\\|msg=\"config reloaded\"' | grep 'HikariPool-2\\|reloaded' | awk -F: '$1>6400 && $1<9900 && (/reloaded/ || ++n % 2)' | cut -c1-125"),
 sh("HikariPool-2 runs with idle capacity (active=8 idle=32) until line 9300, then active=4 idle=0; the reporting pool is not the one in the errors. So cfg-rollout-7781 made the errors possible. The records around it in full, to be sure of the line number:" + notes(5),
    "zcat logs/payments.log.1.gz | sed -n '9292,9304p' | nl -ba -v 9292 | cut -c1-200"),
 sh("Two loose ends before writing anything: are the two other ERROR records really a different failure, and did the reporting pool (HikariPool-1, shrunk by 7776) ever make anyone wait?" + notes(6),
    "grep ' level=ERROR ' logs/payments.log | grep -v 'msg=\"PoolTimeoutException' | cut -c1-200; "
    "zcat logs/payments.log.1.gz | grep 'msg=\"pool stats\"' | grep ' pool=HikariPool-1 ' | grep -vc ' waiting=0 '; grep ' pool=HikariPool-1 ' logs/payments.log | grep -vc ' waiting=0 '; "
    "grep ' level=ERROR ' logs/payments.log | grep -c ' pool=HikariPool-1 '"),
 {"content": "The other two ERRORs are CardGatewayException 502s (no pool involved), and HikariPool-1 never had a waiter in either file and has no errors: 7776 is not the cause. To make the answer reproducible, a script that derives every fact from the logs along the same chain (first ERROR -> its pool -> that pool's datasource at start-up -> the reload that changed that datasource), rather than copying numbers by hand." + notes(6),
  "tool_calls": [{"name": "write_file", "arguments": {"path": "facts.sh", "content": FACTS_SH}}]},
 sh("Running it and comparing with what I found by hand.", "bash facts.sh | tee ANSWER.txt"),
 sh("The script agrees with every note: first error 16723 (r-b6d425a0), 164 requests, root cause payments.log.1.gz:9300, cfg-rollout-7781. Checking the file.", "cat -A ANSWER.txt && rm facts.sh"),
 {"content": "The first ERROR is payments.log line 16723 (request r-b6d425a0), a PoolTimeoutException on HikariPool-2; 164 requests failed that way (182 records: 18 requests were retried and failed again; 2 other ERRORs are CardGatewayException). HikariPool-2 is the ledger datasource's pool, sized by its profile: config rollout cfg-rollout-7781 (payments.log.1.gz line 9300) switched it from standard (pool_size=40) to lean (pool_size=4) the day before. It held under Saturday's light traffic and broke as Sunday's grew. cfg-rollout-7776 shrank the reporting pool (HikariPool-1), which never waits, and Sunday's cache.ttl_s rollout is unrelated."},
]
goal = ("## 1. Current goal and success criteria\n\nWrite ANSWER.txt at the workspace top with exactly five lines, in order: first_error: <file>:<line> (first record at level ERROR), request_id, failed_requests (requests, not records, that failed with that same error in payments.log; a retried request keeps its id and counts once), root_cause: <file>:<line> (the config change that made the errors possible), rollout (its id). Files as named in logs/, 1-based lines of the decompressed text.\n\n")
found = ("## 2. User requirements and confirmed decisions\n\nOnly level=ERROR records count (INFO lines mention \"ERROR 503\" in retries). Found: first ERROR payments.log:16723, request r-b6d425a0, PoolTimeoutException on pool=HikariPool-2 (active=4). ERROR records: 182 PoolTimeoutException on HikariPool-2 from 164 distinct request ids (146 once, 18 twice), 2 CardGatewayException (a different error): failed_requests 164.\n\n")
def summary(work, nxt):
    return goal + found + "## 3. Work done and evidence\n\n" + work + "\n\n## 4. Open problems and next steps\n\n" + nxt + "\n"
s_early = summary("Listed logs (payments.log 28805 lines, Sunday; payments.log.1.gz 16169 lines, Saturday from 13:00). The pool name HikariPool-2 says nothing about what it serves; in payments.log it appears only in pool stats (always active=4 on Sunday) and in the errors.",
    "Find in the rotated file which datasource owns HikariPool-2 and what sizes it (start-up records), list every config reload of both files, find which one cut HikariPool-2 to 4 connections, then write ANSWER.txt.")
s_late = summary("Listed logs (payments.log 28805 lines, payments.log.1.gz 16169 lines). Start-up records of payments.log.1.gz: HikariPool-2 = datasource `ledger`, profile standard; profiles standard pool_size=40, lean pool_size=4, burst pool_size=80; HikariPool-1 = datasource `reporting`, pool_size=40. Config reloads: payments.log.1.gz line 4046 cfg-rollout-7712 (http.timeout_ms 3000->2500), line 6673 cfg-rollout-7776 (datasources.reporting.pool_size 40->4, HikariPool-1), line 9300 cfg-rollout-7781 (datasources.ledger.profile standard->lean), line 11826 cfg-rollout-7790 (feature.fast_refunds); payments.log line 15152 cfg-rollout-7802 (cache.ttl_s 30->300). HikariPool-2 has idle capacity (active=8 idle=32) up to line 9300 and active=4 idle=0 after it; line 9300 checked in full. Loose ends: the 2 other ERRORs are CardGatewayException 502s; HikariPool-1 never had a waiter and has no errors, so 7776 is not the cause.",
    "Write facts.sh deriving every fact along the chain (first ERROR -> pool -> datasource at start-up -> the reload of that datasource), run it into ANSWER.txt, check the file against these notes (root_cause payments.log.1.gz:9300, cfg-rollout-7781), remove facts.sh, report.")
# The run summarizes once, after the loose ends (step 9 of 12); the spares follow in the
# order earlier states would need them, should the agent's thresholds change.
doc = {"turns": turns, "summaries": [s_late, s_late, s_early, s_late]}
yaml.safe_dump(doc, open("trajectory.yaml", "w"), sort_keys=False, width=120, allow_unicode=True)
