#!/usr/bin/env python3
"""Writes wrong/<name>/solve.sh: each is the oracle (solution/solve.sh) with one hop taken
the wrong way (the edits below; each must match the oracle exactly once), except
first-grep-hits, which is written by hand. Run: python3 make_wrongs.py"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
oracle = open(os.path.join(HERE, "solution/solve.sh")).read()
head, body = oracle.split("set -euo pipefail\n", 1)

# The remediation in the form the scripted trajectory writes (the database's own setting),
# unless a wrong changes it.
DB_FORM = [("print(f\"remediation: presets.{now}.max_active={restore}\")",
            "print(f\"remediation: db.{db}.max_active={restore}\")")]

WRONGS = {
    "count-records": (
        "counts the errors, not the requests: a retried request fails twice under one request id.",
        [("print(f\"failed_requests: {len(failed)}\")",
          "print(f\"failed_requests: {sum(1 for _, _, l in recs if ' level=ERROR ' in l and msg(l).startswith(kind + ':') and kv(l).get('pool') == pool)}\")")] + DB_FORM),
    "current-file-only": (
        "only reads the current file: the first ERROR and the failed requests are taken from payments.log alone (the errors began before midnight, in the rotated file).",
        [("first_i = next(i for i, r in enumerate(recs) if \" level=ERROR \" in r[2])",
          "first_i = next(i for i, r in enumerate(recs) if \" level=ERROR \" in r[2] and r[0] == \"payments.log\")"),
         ("failed = {request_of(i) for i, (_, _, l) in enumerate(recs)\n          if ",
          "failed = {request_of(i) for i, (fn, _, l) in enumerate(recs)\n          if fn == \"payments.log\" and ")] + DB_FORM),
    "per-file-dedup": (
        "deduplicates request ids within each file and adds the two counts: a request whose first attempt failed before midnight and whose retry failed after it is counted twice.",
        [("print(f\"failed_requests: {len(failed)}\")",
          "print(f\"failed_requests: {sum(len({request_of(i) for i, (f_, _, l) in enumerate(recs) if f_ == fn and ' level=ERROR ' in l and msg(l).startswith(kind + ':') and kv(l).get('pool') == pool}) for fn in ('payments.log.1.gz', 'payments.log'))}\")")] + DB_FORM),
    "pool-by-order": (
        "maps HikariPool-N to the N-th database bound (the pools start in another order, on two threads), so blames the reporting pool's cut.",
        [("        pool_db[m.split(\" \")[0]] = thread_db[k[\"thread\"]]\n",
          "        pass\n    if m == \"binding database\":\n        pool_db[\"HikariPool-%d\" % (len(pool_db) + 1)] = k[\"db\"]\n"),
         ("assert size(db) == size_at_error, (db, size(db))\n", ""),
         ("print(f\"remediation: presets.{now}.max_active={restore}\")",
          "print(f\"remediation: db.{db}.max_active={restore}\")"),
         ("now = db_conf[db][\"preset\"]\nassert", "now = db_conf[db][\"preset\"]\nassert True or")]),
    "first-ledger-rollout": (
        "blames the first served change that touched the ledger database (default->slim: slim takes default's max_active, nothing changed).",
        [("    if size(db) != before:\n        cause,",
          "    if any(key.startswith(f\"db.{db}.\") for key, _ in edits[m.group(1)]) and cause is None:\n        cause,")] + DB_FORM),
    "last-ledger-rollout": (
        "blames the last served change before the first error that touched the ledger database (sidecar->sidecar-v2: it takes max_active=4 from sidecar, nothing changed).",
        [("    if size(db) != before:\n        cause,",
          "    if any(key.startswith(f\"db.{db}.\") for key, _ in edits[m.group(1)]):\n        cause,")] + DB_FORM),
    "latest-rollout": (
        "blames the last change served before the first error (recency), not the one that changed the pool.",
        [("    if size(db) != before:\n        cause,", "    if True:\n        cause,")] + DB_FORM),
    "startup-profiles": (
        "resolves the presets as the start-up records state them and ignores changes to a preset, so restores the pool to 40, not the 36 it had just before the cause.",
        [("        elif parts[0] == \"presets\":\n            presets.setdefault(parts[1], {})[parts[2]] = new\n", "")] + DB_FORM),
    "restore-previous-profile": (
        "every other fact right, but the remediation gives the value to the preset the pool used before the root cause (slim), which it no longer uses: sidecar, below slim in its chain, sets 4 itself, so the setting changes nothing.",
        [("print(f\"remediation: presets.{now}.max_active={restore}\")",
          "print(f\"remediation: presets.slim.max_active={restore}\")")]),
    "switch-profile-back": (
        "every other fact right, but the remediation undoes the root cause by switching the ledger database back to the preset it used before it (slim): 36 connections again, but the pool's preset (and with it min_idle and ttl_ms) changes, which the instruction rules out.",
        [("print(f\"remediation: presets.{now}.max_active={restore}\")",
          "print(f\"remediation: db.{db}.preset=slim\")")]),
    "zero-based": (
        "right records, but line numbers counted from 0 (as a Python enumerate would).",
        [("print(f\"first_error: {first[0]}:{first[1]}\")", "print(f\"first_error: {first[0]}:{first[1] - 1}\")"),
         ("print(f\"root_cause: {cause[0]}:{cause[1]}\")", "print(f\"root_cause: {cause[0]}:{cause[1] - 1}\")")] + DB_FORM),
    # New hops (issue 36, point 5).
    "adjacent-request-id": (
        "takes the request id of the next record after the first error that carries one (another worker thread's request), not the next access record on the error's own thread.",
        [("print(f\"request_id: {request_of(first_i)}\")",
          "print(f\"request_id: {next(kv(l)['req'] for _, _, l in recs[first_i + 1:] if 'req' in kv(l))}\")")] + DB_FORM),
    "all-503": (
        "counts every distinct request that ended in 503, over both files: the fx-rates circuit's 503s are another error.",
        [("print(f\"failed_requests: {len(failed)}\")",
          "print(f\"failed_requests: {len({kv(l)['req'] for _, _, l in recs if msg(l) == 'request done' and kv(l).get('status') == '503'})}\")")] + DB_FORM),
    "fetched-is-applied": (
        "replays every change where it was fetched (its edits are logged there), ignoring when each was served and that one was withdrawn: blames the withdrawn CHG-7780, at its fetch.",
        [("cause = None\nfor r in recs[:first_i]:\n    m = served(r[2]) if \" thread=cfg-sync \" in r[2] else None\n",
          "cause = None\nfetched = lambda l: re.fullmatch(r\"fetched.*\", msg(l)) and re.search(r\" rev=([0-9a-f]+)\", l)\nfor r in recs[:first_i]:\n    m = fetched(r[2]) if \" thread=cfg-sync \" in r[2] else None\n"),
         ("now = db_conf[db][\"preset\"]\nassert", "now = db_conf[db][\"preset\"]\nassert True or")] + DB_FORM),
    "first-cut": (
        "blames the first served change that lowered the ledger pool's limit (CHG-7744: default 40->36, still far above the 4 the errors show), and restores the 40 it had before that.",
        [("    if size(db) != before:\n        cause,", "    if size(db) != before and cause is None:\n        cause,")] + DB_FORM),
    "first-503-request": (
        "takes the request of the first access record with status=503 after the first error (a load-shedding 503 of another thread comes first), not the next access record on the error's own thread.",
        [("print(f\"request_id: {request_of(first_i)}\")",
          "print(f\"request_id: {next(kv(l)['req'] for _, _, l in recs[first_i + 1:] if kv(l).get('status') == '503')}\")")] + DB_FORM),
    "fetch-record": (
        "every other fact right (the withdrawn change left out), but root_cause is the record where the cause was fetched, before it took effect, not the record at which it was served.",
        [("print(f\"root_cause: {cause[0]}:{cause[1]}\")",
          "fl = next(r for r in recs if ' thread=cfg-sync ' in r[2] and f' rev={rev} ' in r[2] and msg(r[2]).startswith('fetched'))\nprint(f\"root_cause: {fl[0]}:{fl[1]}\")")] + DB_FORM),
}

for name, (why, edits) in WRONGS.items():
    text = body
    for old, new in edits:
        assert text.count(old) == 1, (name, old)
        text = text.replace(old, new)
    os.makedirs(os.path.join(HERE, "wrong", name), exist_ok=True)
    with open(os.path.join(HERE, "wrong", name, "solve.sh"), "w") as f:
        f.write("#!/bin/bash\n# Wrong: " + why + "\n# (Written by make_wrongs.py: the oracle with this one hop changed.)\n"
                "set -euo pipefail\n" + text)
