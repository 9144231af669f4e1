#!/usr/bin/env python3
"""Writes trajectory.yaml (the scripted model's play) deterministically; its summaries answer
the summary requests the 9k window makes nab-agent send. The facts script the play writes
is the reference derivation (solution/solve.sh's Python). Run: python3 make_trajectory.py"""
import os
import yaml
HERE = os.path.dirname(os.path.abspath(__file__))
solve = open(os.path.join(HERE, "solution/solve.sh")).read()
FACTS_PY = solve.split("<<'PY' > /workspace/ANSWER.txt\n", 1)[1].split("\nPY\n", 1)[0] + "\n"
FACTS = ["first ERROR payments.log.1.gz:14968 (Saturday 23:1x), request r-30c848fc, PoolTimeoutException on HikariPool-2 (active=4)",
         "PoolTimeoutException/HikariPool-2: 205 records, 189 distinct requests over both files (3 ids fail in both files, at midnight): failed_requests 189",
         "start-up: threads ds-init-1 = ledger (profile default), ds-init-2 = reporting (default, pool_size=40 override) then audit (burst); HikariPool-1 and -3 start on ds-init-2, HikariPool-2 on ds-init-1: HikariPool-2 = ledger; profiles default 40, slim extends default, sidecar extends slim pool_size=4, sidecar-v2 extends sidecar, burst 80",
         "reloads (gz): 7712 http; 2763 7744 profiles.default.pool_size 40->36; 3982 7776 reporting.pool_size 40->4; 5201 7779 ledger default->slim (still 36); 6420 7781 ledger slim->sidecar (36->4); 7783 slim.min_idle; 8554 7785 sidecar->sidecar-v2 (still 4); 10078 7790 feature flag; payments.log 7802 cache.ttl_s",
         "root cause payments.log.1.gz:6420 cfg-rollout-7781; remediation datasources.ledger.pool_size=36"]


NOTE_AT = {2, 3, 4}  # restated while the chain is followed; the summaries carry the rest


def notes(n):
    """What a careful agent restates under a small window: the facts found so far."""
    return " Notes: " + FACTS[n - 1] + "." if n in NOTE_AT else ""


def sh(c, cmd): return {"content": c, "tool_calls": [{"name": "execute_command", "arguments": {"command": cmd}}]}
ERR = "' level=ERROR '"
turns = [
 sh("Let me see what logs there are and how big they are.",
    "ls -1 logs && wc -c logs/* && wc -l logs/payments.log && zcat logs/payments.log.1.gz | wc -l && head -3 logs/payments.log && zcat logs/payments.log.1.gz | tail -2"),
 sh("The errors may have begun before midnight. The first record at level ERROR (not any line containing the word) in the rotated file, and in the current one, with context:",
    f"n=$(zcat logs/payments.log.1.gz | grep -n {ERR} | head -1 | cut -d: -f1); echo \"rotated: first ERROR at line $n\"; zcat logs/payments.log.1.gz | sed -n \"$((n-6)),$((n+1))p\" | cut -c1-210; "
    f"zcat logs/payments.log.1.gz | head -n $((n-1)) | grep -c {ERR}; grep -n -m1 {ERR} logs/payments.log | cut -c1-120"),
 sh("payments.log.1.gz:14968 is the first ERROR of all (nothing at level ERROR before it): PoolTimeoutException on pool HikariPool-2 (active=4), request r-30c848fc. Error kinds, and failing request ids over both files (a retried request keeps its id, even across the rotation):",
    f"(zcat logs/payments.log.1.gz; cat logs/payments.log) | grep {ERR} | sed -E 's/.*msg=\"([A-Za-z]+).*/\\1/' | sort | uniq -c; "
    f"zcat logs/payments.log.1.gz | grep {ERR} | grep 'msg=\"PoolTimeoutException' | grep ' pool=HikariPool-2 ' | sed -E 's/.* req=([^ ]+) .*/\\1/' | sort -u > /tmp/ids.1; "
    f"grep {ERR} logs/payments.log | grep 'msg=\"PoolTimeoutException' | grep ' pool=HikariPool-2 ' | sed -E 's/.* req=([^ ]+) .*/\\1/' | sort -u > /tmp/ids.2; wc -l /tmp/ids.1 /tmp/ids.2; "
    "comm -12 /tmp/ids.1 /tmp/ids.2 | wc -l; sort -u /tmp/ids.1 /tmp/ids.2 | wc -l; "
    f"(zcat logs/payments.log.1.gz; cat logs/payments.log) | grep {ERR} | grep -c 'msg=\"PoolTimeoutException'"),
 sh("205 PoolTimeoutException records on HikariPool-2; 30 ids in the rotated file, 162 in the current one, 3 in both (retried across midnight): 189 distinct requests. The CardGatewayException records are another error. Nothing in the name HikariPool-2 says what it serves; the rotated file starts with the service start-up:" + notes(2),
    "zcat logs/payments.log.1.gz | sed -n '1,21p' | cut -c26-175"),
 sh("The pools are numbered in the order they start, on two init threads: ds-init-1 initializes ledger and starts HikariPool-2; ds-init-2 initializes reporting, starts HikariPool-1, then audit and HikariPool-3. So HikariPool-2 is ledger (profile default) — not the second datasource initialized (reporting), nor the one initialized just before it started (audit). Profiles inherit: default pool_size=40; slim extends default (min_idle only, so 40); sidecar extends slim with pool_size=4; sidecar-v2 extends sidecar (4); burst 80. Every config reload of both files:" + notes(3),
    "(zcat logs/payments.log.1.gz | grep -n 'msg=\"config reloaded\"' | sed 's/^/gz:/'; grep -n 'msg=\"config reloaded\"' logs/payments.log) | sed -E 's/^([a-z]*:?[0-9]+):.* rollout=([^ ]+) changes=(.*) msg=.*/\\1 \\2 \\3/'"),
 sh("Nine reloads. Before replaying them: can the ledger pool's own stats show when its size changed? HikariPool-2's pool stats on Saturday between the first and the last ledger profile switch:" + notes(4),
    "zcat logs/payments.log.1.gz | grep -n 'msg=\"pool stats\"' | grep ' pool=HikariPool-2 ' | awk -F: '$1>4400 && $1<9400 && NR%2' | cut -c1-32,90-130"),
 sh("The stats only say active 1-3 and waiting 0 on both sides of every reload: they never show a capacity, so the size has to come from the configuration. Replaying the reloads on ledger's effective size: 7744 sets profiles.default.pool_size 40->36 (ledger 40->36); 7776 is reporting's own override (HikariPool-1); 7779 default->slim (slim inherits 36: unchanged); 7781 slim->sidecar (36->4); 7783 slim.min_idle; 7785 sidecar->sidecar-v2 (inherits 4: unchanged); 7790 a feature flag, 7802 (Sunday) cache. So cfg-rollout-7781 made the errors possible, and ledger had 36 connections just before it; the reporting datasource shows a datasource's own pool_size overrides its profile. Did the reporting pool or the audit pool ever make anyone wait?" + notes(5),
    "(zcat logs/payments.log.1.gz; cat logs/payments.log) | grep 'msg=\"pool stats\"' | grep -v ' pool=HikariPool-2 ' | grep -vc ' waiting=0 '; (zcat logs/payments.log.1.gz; cat logs/payments.log) | grep ' level=ERROR ' | grep -c ' pool=HikariPool-[13] '"),
 sh("None did. Two checks on the count: the ERROR records per hour over both files, and the records around midnight, where a retried request can fail once in each file. Notes: " + "; ".join(FACTS[2:5]) + ".",
    "(zcat logs/payments.log.1.gz; cat logs/payments.log) | grep ' level=ERROR ' | cut -c1-13 | uniq -c; "
    "zcat logs/payments.log.1.gz | grep ' level=ERROR ' | tail -3 | sed -E 's/ svc=payments thread=[^ ]+ / /; s/ route=[^ ]+//; s/ status=503//; s/ msg=\"(PoolTimeoutException).*/ \\1/'"
    "; grep ' level=ERROR ' logs/payments.log | head -4 | sed -E 's/ svc=payments thread=[^ ]+ / /; s/ route=[^ ]+//; s/ status=503//; s/ msg=\"(PoolTimeoutException).*/ \\1/'"),
 {"content": "Errors from Saturday 23:00 to 00:xx, none in the small hours, again from Sunday 08:00; r-a5192215, r-5fa7ad0e and r-c2706adf fail just before midnight and again, attempt=2, just after: one request each, as counted (189). To make the answer reproducible, a script that derives every fact along the chain (first ERROR over both files -> its pool -> the datasource whose init thread started it -> profiles resolved through extends -> every reload replayed on that datasource's effective size), rather than copying numbers by hand." + notes(5),
  "tool_calls": [{"name": "write_file", "arguments": {"path": "facts.py", "content": FACTS_PY}}]},
 sh("Running it and comparing with what I found by hand.", "cd logs && python3 ../facts.py | tee ../ANSWER.txt"),
 sh("The script agrees with every note. Checking the file.", "cat -A ANSWER.txt && rm facts.py"),
 {"content": "The first ERROR is payments.log.1.gz line 14968 (Saturday night, request r-30c848fc), a PoolTimeoutException on HikariPool-2; 189 requests failed that way over both files (205 records: retries, three of them across midnight). HikariPool-2 is the ledger datasource's pool (started on its init thread). cfg-rollout-7781 (payments.log.1.gz line 6420) switched ledger's profile slim->sidecar, cutting its effective pool from 36 (default's size after cfg-rollout-7744) to 4; the other ledger profile switches (7779, 7785) left the size unchanged, 7776 shrank the reporting pool, which never waits. Remediation: datasources.ledger.pool_size=36."},
]
goal = ("## 1. Current goal and success criteria\n\nWrite ANSWER.txt at the workspace top with exactly six lines, in order: first_error: <file>:<line> (first record at level ERROR over both files), request_id, failed_requests (requests, not records, that failed with that same error in both files; a retried request keeps its id and counts once), root_cause: <file>:<line> (the config change that made the errors possible), rollout (its id), remediation: <config key>=<value> (restores the failing pool's connection count from just before the root cause without changing its profile). Files as named in logs/, 1-based lines of the decompressed text.\n\n")
found = ("## 2. User requirements and confirmed decisions\n\nOnly level=ERROR records count (INFO lines mention \"ERROR 503\" in retries). Found: first ERROR payments.log.1.gz:14968, request r-30c848fc, PoolTimeoutException on pool=HikariPool-2 (active=4). 205 such records, 189 distinct request ids over both files (30 rotated, 162 current, 3 in both): failed_requests 189. CardGatewayException records are a different error.\n\n")
def summary(work, nxt):
    return goal + found + "## 3. Work done and evidence\n\n" + work + "\n\n## 4. Open problems and next steps\n\n" + nxt + "\n"
s_early = summary("Listed logs (payments.log 24579 lines, Sunday; payments.log.1.gz 17582 lines, Saturday from 13:00). The pool name HikariPool-2 says nothing about what it serves.",
    "Read the rotated file's start-up records (which init thread starts which pool, the profiles and their extends), list every config reload of both files, replay them on the failing datasource's effective pool size, then write ANSWER.txt.")
s_late = summary("Listed logs (payments.log 24579 lines, payments.log.1.gz 17582 lines). Start-up: ds-init-1 initializes ledger (profile default) and starts HikariPool-2; ds-init-2 initializes reporting (pool_size=40 override), starts HikariPool-1, then audit (burst), HikariPool-3: HikariPool-2 = ledger. Profiles: default pool_size=40; slim extends default; sidecar extends slim pool_size=4; sidecar-v2 extends sidecar; burst 80. Reloads (payments.log.1.gz lines): 2763 cfg-rollout-7744 profiles.default.pool_size 40->36; 3982 7776 datasources.reporting.pool_size 40->4; 5201 7779 ledger default->slim (still 36); 6420 7781 ledger slim->sidecar (36->4); 8554 7785 sidecar->sidecar-v2 (still 4); 10078 7790 feature flag; Sunday 7802 cache.ttl_s. Root cause payments.log.1.gz:6420 cfg-rollout-7781; remediation datasources.ledger.pool_size=36. HikariPool-1/-3 never waited and have no errors.",
    "Write facts.py deriving every fact along the chain, run it from logs/ into ANSWER.txt, check it against these notes, remove facts.py, report.")
doc = {"turns": turns, "summaries": [s_late, s_late, s_early, s_late, s_late, s_late]}
yaml.safe_dump(doc, open(os.path.join(HERE, "trajectory.yaml"), "w"), sort_keys=False, width=120, allow_unicode=True)
