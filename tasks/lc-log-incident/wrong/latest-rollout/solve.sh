#!/bin/bash
# Wrong: blames the last config rollout before the errors (recency), not the pool change.
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 ' level=ERROR ' payments.log)
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
last=$(head -n "${first%%:*}" payments.log | grep -n 'config reloaded' | tail -1)
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:${first%%:*}
request_id: $req
failed_requests: $(grep -c ' level=ERROR ' payments.log)
root_cause: payments.log:${last%%:*}
rollout: $(sed -E 's/.* rollout=([^ ]+) .*/\1/' <<<"$last")
ANS
