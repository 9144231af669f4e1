#!/bin/bash
# Wrong (the one-grep causal chain): the errors say a pool was exhausted at 4 connections,
# so blame the config reload that set a pool size to 4. That rollout shrank the reporting
# pool (HikariPool-1); the errors are the ledger pool's (HikariPool-2), whose size changed
# through its profile (standard -> lean, pool_size=4 per the start-up profiles).
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 ' level=ERROR ' payments.log)
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
count=$(grep ' level=ERROR ' payments.log | grep 'msg="PoolTimeoutException' | sed -E 's/.* req=([^ ]+) .*/\1/' | sort -u | wc -l)
cause=$(zcat payments.log.1.gz | grep -n 'msg="config reloaded"' | grep -- '->4' | tail -1)
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:${first%%:*}
request_id: $req
failed_requests: $count
root_cause: payments.log.1.gz:${cause%%:*}
rollout: $(sed -E 's/.* rollout=([^ ]+) .*/\1/' <<<"$cause")
ANS
