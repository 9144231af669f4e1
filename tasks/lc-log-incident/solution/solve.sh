#!/bin/bash
# Oracle: the first level=ERROR record; its message names the exhausted pool (max=4); the
# config reload that set db.pool.max to 4 is in the rotated file.
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 ' level=ERROR ' payments.log)
line=${first%%:*}
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
kind=$(sed -E 's/.*msg="([A-Za-z]+Exception).*/\1/' <<<"$first")
count=$(grep ' level=ERROR ' payments.log | grep -c "$kind")
cause=$(zcat payments.log.1.gz | grep -n 'msg="config reloaded"' | grep 'db.pool.max [0-9]*->4' | tail -1)
cline=${cause%%:*}
rollout=$(sed -E 's/.* rollout=([^ ]+) .*/\1/' <<<"$cause")
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:$line
request_id: $req
failed_requests: $count
root_cause: payments.log.1.gz:$cline
rollout: $rollout
ANS
cat /workspace/ANSWER.txt
