#!/usr/bin/env python3
"""Writes trajectory.yaml (the scripted model's play) deterministically; its summaries answer
the summary requests the 12k window makes nab-agent send. Run: python3 make_trajectory.py"""
import yaml
def sh(c, cmd): return {"content": c, "tool_calls": [{"name": "execute_command", "arguments": {"command": cmd}}]}
turns = [
 sh("Let me see what logs there are and how big they are.",
    "ls -1 logs && wc -c logs/* && wc -l logs/payments.log && zcat logs/payments.log.1.gz | wc -l && head -3 logs/payments.log"),
 sh("The first record at level ERROR (not just any line containing the word), with the records just before it:",
    "n=$(grep -n -m1 ' level=ERROR ' logs/payments.log | cut -d: -f1); echo \"first ERROR at line $n\"; sed -n \"$((n-40)),$((n+3))p\" logs/payments.log"),
 sh("Line 16723: PoolTimeoutException on pool HikariPool-2 (active=4), request r-b6d425a0. Which ERROR kinds are there, and how often does each failing request id occur (a retried request keeps its id)?",
    "grep ' level=ERROR ' logs/payments.log | sed -E 's/.*msg=\"([A-Za-z]+).*/\\1/' | sort | uniq -c; "
    "grep ' level=ERROR ' logs/payments.log | grep 'msg=\"PoolTimeoutException' | grep ' pool=HikariPool-2 ' | sed -E 's/.* req=([^ ]+) .*/\\1/' | sort | uniq -c | awk '{print $1}' | sort | uniq -c; "
    "grep ' level=ERROR ' logs/payments.log | grep 'msg=\"PoolTimeoutException' | grep ' pool=HikariPool-2 ' | sed -E 's/.* req=([^ ]+) .*/\\1/' | sort -u | wc -l"),
 sh("182 PoolTimeoutException records on HikariPool-2 but 164 distinct requests (18 were retried and failed twice); the 2 CardGatewayException records are another error. failed_requests is 164. Nothing in the name HikariPool-2 says what it serves: what the current file says about it besides pool stats and errors, and how its stats ran on Sunday:",
    "grep 'HikariPool-2' logs/payments.log | grep -v 'msg=\"pool stats\"' | grep -vc ' level=ERROR '; grep -n 'msg=\"pool stats\"' logs/payments.log | awk 'NR%4==1' | cut -c1-140 | head -40"),
 sh("Sunday's file only has stats and errors for it, always at active=4. The rotated file starts with the service start-up; the records that are not traffic:",
    "zcat logs/payments.log.1.gz | grep -vn 'msg=\"request done\"\\|msg=\"pool stats\"\\|msg=\"slow upstream\\|msg=\"retry succeeded\\|msg=\"error budget ok\"' | cut -c1-240; grep -n 'msg=\"config reloaded\"' logs/payments.log"),
 sh("HikariPool-2 is the `ledger` datasource's pool, sized by its profile (standard at start-up); the profiles are standard = pool_size=40, lean = pool_size=4, burst = 80. HikariPool-1 is `reporting`, pool_size=40. Reloads: 7712 (http.timeout_ms), 7776 (datasources.reporting.pool_size 40->4: HikariPool-1, not the failing pool), 7781 (datasources.ledger.profile standard->lean), 7790 (feature flag), and Sunday's 7802 (cache.ttl_s). Checking that HikariPool-2 drops to 4 at 7781's line 9300 and not at 7776's line 6673:",
    "zcat logs/payments.log.1.gz | sed -n '6600,6700p;9230,9330p' | grep 'config reloaded\\|pool=HikariPool' | cut -c1-170"),
 sh("HikariPool-2 runs with idle capacity (up to 40) until line 9300, then at most active=4 idle=0; HikariPool-1 keeps waiting=0 after 7776. So cfg-rollout-7781 made the errors possible. The records around it in full, to be sure of the line:",
    "zcat logs/payments.log.1.gz | sed -n '9280,9330p'"),
 {"content": "Writing the answer.", "tool_calls": [{"name": "write_file", "arguments": {"path": "ANSWER.txt", "content":
   "first_error: payments.log:16723\nrequest_id: r-b6d425a0\nfailed_requests: 164\nroot_cause: payments.log.1.gz:9300\nrollout: cfg-rollout-7781\n"}}]},
 sh("Checking the file.", "cat ANSWER.txt"),
 {"content": "The first ERROR is payments.log line 16723 (request r-b6d425a0), a PoolTimeoutException on HikariPool-2; 164 requests failed that way (182 records: 18 requests were retried and failed again; 2 other ERRORs are CardGatewayException). HikariPool-2 is the ledger datasource's pool, sized by its profile: config rollout cfg-rollout-7781 (payments.log.1.gz line 9300) switched it from standard (pool_size=40) to lean (pool_size=4) the day before. It held under Saturday's light traffic and broke as Sunday's grew. cfg-rollout-7776 shrank the reporting pool (HikariPool-1), which never waits, and Sunday's cache.ttl_s rollout is unrelated."},
]
goal = ("## 1. Current goal and success criteria\n\nWrite ANSWER.txt at the workspace top with exactly five lines, in order: first_error: <file>:<line> (first record at level ERROR), request_id, failed_requests (requests, not records, that failed with that same error in payments.log; a retried request keeps its id and counts once), root_cause: <file>:<line> (the config change that made the errors possible), rollout (its id). Files as named in logs/, 1-based lines of the decompressed text.\n\n")
found = ("## 2. User requirements and confirmed decisions\n\nOnly level=ERROR records count (INFO lines mention \"ERROR 503\" in retries). Found: first ERROR payments.log:16723, request r-b6d425a0, PoolTimeoutException on pool=HikariPool-2 (active=4). ERROR records: 182 PoolTimeoutException on HikariPool-2 from 164 distinct request ids (146 once, 18 twice), 2 CardGatewayException (a different error): failed_requests 164.\n\n")
def summary(work, nxt):
    return goal + found + "## 3. Work done and evidence\n\n" + work + "\n\n## 4. Open problems and next steps\n\n" + nxt + "\n"
s_early = summary("Listed logs (payments.log 28805 lines, Sunday; payments.log.1.gz 16169 lines, Saturday from 13:00). The pool name HikariPool-2 says nothing about what it serves; in payments.log it appears only in pool stats (always active=4 on Sunday) and in the errors.",
    "Find in the rotated file which datasource owns HikariPool-2 and what sizes it (start-up records), list every config reload of both files, find which one cut HikariPool-2 to 4 connections, then write ANSWER.txt.")
s_late = summary("Listed logs (payments.log 28805 lines, payments.log.1.gz 16169 lines). Start-up records of payments.log.1.gz: HikariPool-2 = datasource `ledger`, profile standard; profiles standard pool_size=40, lean pool_size=4, burst pool_size=80; HikariPool-1 = datasource `reporting`, pool_size=40. Config reloads: payments.log.1.gz line 4046 cfg-rollout-7712 (http.timeout_ms 3000->2500), line 6673 cfg-rollout-7776 (datasources.reporting.pool_size 40->4, HikariPool-1, which keeps waiting=0), line 9300 cfg-rollout-7781 (datasources.ledger.profile standard->lean), line 11826 cfg-rollout-7790 (feature.fast_refunds); payments.log line 15152 cfg-rollout-7802 (cache.ttl_s 30->300). HikariPool-2 has idle capacity up to line 9300 and at most active=4 idle=0 after it.",
    "Confirm root_cause payments.log.1.gz:9300 (cfg-rollout-7781) from the records around it, write ANSWER.txt and check it.")
doc = {"turns": turns, "summaries": [s_early, s_late, s_late, s_late]}
yaml.safe_dump(doc, open("trajectory.yaml", "w"), sort_keys=False, width=120, allow_unicode=True)
