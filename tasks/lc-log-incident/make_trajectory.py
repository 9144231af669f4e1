#!/usr/bin/env python3
"""Writes trajectory.yaml (the scripted model's play) deterministically; its summaries answer
the summary requests the 9k window makes nab-agent send. The facts script the play writes
is the reference derivation (solution/solve.sh's Python), printing the remediation as the
database's own setting and the rollout as its revision (the other accepted forms, so that
a scripted run exercises them). Run: python3 make_trajectory.py"""
import os
import yaml
HERE = os.path.dirname(os.path.abspath(__file__))
solve = open(os.path.join(HERE, "solution/solve.sh")).read()
FACTS_PY = solve.split("<<'PY' > /workspace/ANSWER.txt\n", 1)[1].split("\nPY\n", 1)[0] + "\n"
for old, new in [('print(f"remediation: presets.{now}.max_active={restore}")', 'print(f"remediation: db.{db}.max_active={restore}")'),
                 ('print(f"rollout: {change_of[rev]}")', 'print(f"rollout: {rev}")')]:
    assert FACTS_PY.count(old) == 1, old
    FACTS_PY = FACTS_PY.replace(old, new)
FACTS = [
    "first ERROR payments.log.1.gz:15042 (Saturday 23:12, thread http-5), PoolTimeoutException on HikariPool-2 (active=4); it prints no request id: the next access record on http-5 (line 15047) is r-4e7ab6d2, status=503 dur_ms=5005",
    "PoolTimeoutException/HikariPool-2: 192 errors, 176 distinct requests over both files (each error's request = next 'request done' on its thread; 3 requests fail in both files, at midnight): failed_requests 176; the other 503s are CircuitOpenException (fx-rates), not counted",
    "start-up: ds-init-1 binds ledger (preset default), ds-init-2 binds reporting (default, own max_active=40) then audit (burst); HikariPool-1 and -3 start on ds-init-2, HikariPool-2 on ds-init-1: HikariPool-2 = ledger; presets default max_active=40, slim base default, sidecar base slim max_active=4, sidecar-v2 base sidecar, burst 80",
    "cfg-sync: edits are logged at fetch (ticket, rev), take effect at 'now serving <rev>'; served in order 7712, 7744 (presets.default.max_active 40->36, line 2467), 7776 (reporting 40->4), 7779 (ledger default->slim, still 36, line 5321), 7781 rev f0af6af (ledger slim->sidecar: 36->4, served at line 6440), 7783, 7785 (sidecar->sidecar-v2, still 4), 7790; CHG-7780 (ledger own max_active 4) withdrawn, never served",
    "root cause payments.log.1.gz:6440 (now serving f0af6af = CHG-7781); remediation db.ledger.max_active=36",
]


NOTE_AT = {3, 4, 5}  # restated while the chain is followed; the summaries carry the rest


def notes(n):
    """What a careful agent restates under a small window: the facts found so far."""
    return " Notes: " + FACTS[n - 1] + "." if n in NOTE_AT else ""


def sh(c, cmd): return {"content": c, "tool_calls": [{"name": "execute_command", "arguments": {"command": cmd}}]}
ERR = "' level=ERROR '"
SED = "sed -E 's/[0-9-]+T([0-9:.]+)Z level=([A-Z]+) svc=payments /\\1 \\2 /'"
BOTH = "(zcat logs/payments.log.1.gz; cat logs/payments.log)"
turns = [
 sh("Let me see what logs there are and how big they are.",
    "ls -1 logs && wc -c logs/* && wc -l logs/payments.log && zcat logs/payments.log.1.gz | wc -l && head -3 logs/payments.log | cut -c1-200 && zcat logs/payments.log.1.gz | tail -2 | cut -c1-200"),
 sh("The errors may have begun before midnight. The first record at level ERROR (not any line containing the word) in the rotated file, and in the current one, with context:",
    f"n=$(zcat logs/payments.log.1.gz | grep -n {ERR} | head -1 | cut -d: -f1); echo \"rotated: first ERROR at line $n\"; zcat logs/payments.log.1.gz | sed -n \"$((n-2)),$((n+4))p\" | SEDX | cut -c1-170; "
    f"zcat logs/payments.log.1.gz | head -n $((n-1)) | grep -c {ERR}; grep -n -m1 {ERR} logs/payments.log | cut -c1-120"),
 sh("payments.log.1.gz:15042 is the first ERROR of all (nothing at level ERROR before it): PoolTimeoutException on pool HikariPool-2 (active=4), on thread http-5, and it prints no request id. The next record with a request id (r-cf069757, http-23) is another thread's request. How are requests logged? The rotated file starts with the service start-up:",
    "zcat logs/payments.log.1.gz | sed -n '1,23p' | cut -c26-200"),
 sh("One access record per request attempt (\"request done\"), written on its worker thread when it completes: the first error's request is the next \"request done\" on http-5. Pools: ds-init-1 binds ledger and starts HikariPool-2; ds-init-2 binds reporting, starts HikariPool-1, then audit and HikariPool-3. So HikariPool-2 is ledger (preset default), not the second database bound (reporting), nor the one bound just before it started (audit). Presets: default max_active=40; slim base default (min_idle only, so 40); sidecar base slim max_active=4; sidecar-v2 base sidecar (4); burst 80. The first error's request, and the same for every error of its kind over both files:" + notes(3),
    "zcat logs/payments.log.1.gz | awk 'NR>15042 && / thread=http-5 / && /msg=\"request done\"/ {print NR\": \"$0; exit}' | SEDX; "
    f"{BOTH} | awk '/ level=ERROR / {{match($0, / thread=[^ ]+/); t=substr($0, RSTART, RLENGTH); k[t]=($0 ~ /PoolTimeoutException/ && / pool=HikariPool-2 /) ? \"pool\" : \"other\"; next}} "
    "/msg=\"request done\"/ {match($0, / thread=[^ ]+/); t=substr($0, RSTART, RLENGTH); if (t in k) {match($0, / req=[^ ]+/); print k[t], substr($0, RSTART+5, RLENGTH-5), ($0 ~ / status=503 /) ? 503 : \"not503\"; delete k[t]}}' > /tmp/failed.txt; "
    "cut -d' ' -f1,3 /tmp/failed.txt | sort | uniq -c; echo distinct pool requests: $(awk '$1==\"pool\"{print $2}' /tmp/failed.txt | sort -u | wc -l); "
    f"{BOTH} | grep {ERR} | sed -E 's/.*msg=\"([A-Za-z]+).*/\\1/' | sort | uniq -c"),
 sh("The first error failed r-4e7ab6d2 (line 15047, status=503, 5005 ms: the pool's 5000 ms wait). 192 PoolTimeoutException errors on HikariPool-2, 176 distinct requests (retries keep their id). Other 503s come from CircuitOpenException (fx-rates), another error, and from load shedding (a WARN, no error at all); CardGatewayException answers 502. Do requests fail in both files?" + notes(4),
    "zcat logs/payments.log.1.gz | awk '/ level=ERROR / && /PoolTimeout/ {match($0, / thread=[^ ]+/); p[substr($0, RSTART, RLENGTH)]=1; next} /request done/ {match($0, / thread=[^ ]+/); t=substr($0, RSTART, RLENGTH); if (p[t]) {match($0, / req=[^ ]+/); print substr($0, RSTART+5, RLENGTH-5); delete p[t]}}' | sort -u > /tmp/ids.1; "
    "awk '/ level=ERROR / && /PoolTimeout/ {match($0, / thread=[^ ]+/); p[substr($0, RSTART, RLENGTH)]=1; next} /request done/ {match($0, / thread=[^ ]+/); t=substr($0, RSTART, RLENGTH); if (p[t]) {match($0, / req=[^ ]+/); print substr($0, RSTART+5, RLENGTH-5); delete p[t]}}' logs/payments.log | sort -u > /tmp/ids.2; "
    "wc -l /tmp/ids.1 /tmp/ids.2; comm -12 /tmp/ids.1 /tmp/ids.2"),
 sh("27 requests in the rotated file, 152 in the current one, 3 in both (retried across midnight): 176 in all, as counted. Now the configuration: nothing in the logs says \"config\"; which threads are there besides the workers?" + notes(5),
    f"{BOTH} | grep -v ' thread=http-' | sed -E 's/.* thread=([^ ]+) .*msg=\"([^\"]{{0,30}}).*/\\1: \\2/' | sort | uniq -c | sort -rn"),
 sh("cfg-sync looks like the configuration agent. All of its records, both files:",
    f"{BOTH} | grep ' thread=cfg-sync ' | SEDX | sed 's/ thread=cfg-sync//'"),
 sh("A change is fetched (ticket, revision, its edits one record each) and only takes effect at \"now serving <rev>\"; CHG-7780 was withdrawn. Can the ledger pool's own stats show when its limit changed? HikariPool-2's stats between the first ledger edit served and CHG-7785:" + notes(4).replace(" Notes:", " Notes so far:"),
    "zcat logs/payments.log.1.gz | grep -n 'msg=\"pool stats\"' | grep ' pool=HikariPool-2 ' | awk -F: '$1>5000 && $1<8500 && NR%2' | SEDX"),
 sh("The stats only say active 1-3 and waiting 0 on both sides of every change: they never show a limit, so it has to come from the configuration. Replaying the served revisions, in the order served, on ledger's effective max_active: 7712 http; 7744 presets.default 40->36 (ledger 40->36); 7776 reporting's own limit (HikariPool-1); 7779 default->slim (slim takes 36: unchanged); 7781 slim->sidecar (36->4) at line 6440; 7783 slim.min_idle; 7785 sidecar->sidecar-v2 (takes 4: unchanged); 7790 a flag. CHG-7780 (ledger's own limit 4) was never served. So rev f0af6af (CHG-7781), served at line 6440, made the errors possible; ledger had 36 just before. Did the reporting or audit pool ever make anyone wait?" + notes(5),
    f"{BOTH} | grep 'msg=\"pool stats\"' | grep -v ' pool=HikariPool-2 ' | grep -vc ' waiting=0 ' || true; {BOTH} | grep {ERR} | grep -c ' pool=HikariPool-[13] ' || true"),
 {"content": "None did. To make the answer reproducible, a script that derives every fact along the chain (first ERROR over both files -> its request on its thread -> every such error's request -> the pool's database by its start-up thread -> presets resolved through base -> the served revisions replayed on that database's effective max_active), rather than copying numbers by hand. Notes: " + "; ".join(FACTS) + ".",
  "tool_calls": [{"name": "write_file", "arguments": {"path": "facts.py", "content": FACTS_PY}}]},
 sh("Running it and comparing with what I found by hand.", "cd logs && python3 ../facts.py | tee ../ANSWER.txt"),
 sh("The script agrees with every note. Checking the file.", "cat -A ANSWER.txt && rm facts.py"),
 {"content": "The first ERROR is payments.log.1.gz line 15042 (Saturday 23:12): a PoolTimeoutException on HikariPool-2 that failed request r-4e7ab6d2 (its access record on the same thread); 176 requests failed that way over both files (192 errors: retries, three of them across midnight; the fx-rates circuit's 503s are another error). HikariPool-2 is the ledger database's pool (started on its init thread). Revision f0af6af (CHG-7781), served at payments.log.1.gz line 6440, switched ledger's preset slim->sidecar, cutting its limit from 36 (default's after CHG-7744) to 4; the other ledger preset switches (7779, 7785) left it unchanged, CHG-7780 was withdrawn, and CHG-7776 shrank the reporting pool, which never waits. Remediation: db.ledger.max_active=36."},
]
for t in turns:
    for c in t.get("tool_calls", []):
        if "command" in c["arguments"]:
            c["arguments"]["command"] = c["arguments"]["command"].replace("SEDX", SED)
goal = ("## 1. Current goal and success criteria\n\nWrite ANSWER.txt at the workspace top with exactly six lines, in order: first_error: <file>:<line> (first record at level ERROR over both files), request_id (the request that error failed), failed_requests (requests, not errors, that failed with that same error in both files; a retried request keeps its id and counts once), root_cause: <file>:<line> (the record at which the config change that made the errors possible took effect), rollout (that change's id), remediation: <config key>=<value> (gives the failing pool back the connection limit it had just before the root cause, changing nothing else, not what it takes its settings from). Files as named in logs/, 1-based lines of the decompressed text.\n\n")
found = ("## 2. User requirements and confirmed decisions\n\nOnly level=ERROR records count (INFO lines mention \"ERROR 503\" in retries). Found: first ERROR payments.log.1.gz:15042, thread http-5, PoolTimeoutException on pool=HikariPool-2 (active=4), no request id on the error line.\n\n")
def summary(work, nxt):
    return goal + found + "## 3. Work done and evidence\n\n" + work + "\n\n## 4. Open problems and next steps\n\n" + nxt + "\n"
s_early = summary("Listed logs (payments.log 25647 lines, Sunday; payments.log.1.gz 17722 lines, Saturday from 13:00). The pool name HikariPool-2 says nothing about what it serves, and the error names no request.",
    "Read the rotated file's start-up records (how requests are logged, which init thread starts which pool, the presets and their base), find the first error's request and count the failed requests, list the configuration history and replay it on the failing database's effective limit, then write ANSWER.txt.")
s_mid = summary("Start-up: one access record (\"request done\") per request attempt, on its worker thread, when it completes. ds-init-1 binds ledger (preset default) and starts HikariPool-2; ds-init-2 binds reporting (own max_active=40), starts HikariPool-1, then audit (burst), HikariPool-3: HikariPool-2 = ledger. Presets: default max_active=40; slim base default; sidecar base slim max_active=4; sidecar-v2 base sidecar; burst 80. First error's request: r-4e7ab6d2 (line 15047, same thread). 192 PoolTimeoutException errors, 176 distinct requests (27 rotated, 152 current, 3 in both); CircuitOpenException 503s are another error.",
    "Find the configuration history (no record says config: look for the agent's thread), replay what took effect on ledger's effective max_active, then write ANSWER.txt with a script.")
s_late = summary("Start-up: access records per request on its worker thread; HikariPool-2 = ledger (ds-init-1), presets default 40, slim base default, sidecar base slim 4, sidecar-v2 base sidecar, burst 80. First error's request r-4e7ab6d2; 176 failed requests (192 errors). Thread cfg-sync: a change is fetched (ticket, rev, edits) and takes effect at \"now serving <rev>\". Served: 7712 http; 2467 CHG-7744 presets.default.max_active 40->36; 3995 7776 db.reporting.max_active 40->4; 5321 7779 ledger default->slim (still 36); 6440 rev f0af6af CHG-7781 ledger slim->sidecar (36->4); 7783 slim.min_idle; 8376 7785 sidecar->sidecar-v2 (still 4); 9598 7790 flag; Sunday 7802 cache. CHG-7780 (ledger own limit 4, fetched at 4504) withdrawn, never served. Root cause payments.log.1.gz:6440, f0af6af/CHG-7781; remediation db.ledger.max_active=36. HikariPool-1/-3 never waited and have no errors.",
    "Write facts.py deriving every fact along the chain, run it from logs/ into ANSWER.txt, check it against these notes, remove facts.py, report.")
# nab-agent summarizes first after the thread listing (turn 6), then after the pool stats (turn 8);
# s_early is kept for a run whose first summary comes sooner.
doc = {"turns": turns, "summaries": [s_mid, s_late, s_late, s_late, s_late, s_late]}
yaml.safe_dump(doc, open(os.path.join(HERE, "trajectory.yaml"), "w"), sort_keys=False, width=120, allow_unicode=True)
