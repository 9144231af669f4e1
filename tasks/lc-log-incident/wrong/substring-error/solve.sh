#!/bin/bash
# Wrong: "first error" found with a plain substring search (hits INFO lines mentioning ERROR).
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 'ERROR' payments.log)
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:${first%%:*}
request_id: $req
failed_requests: $(grep -c 'ERROR' payments.log)
root_cause: payments.log.1.gz:9248
rollout: cfg-rollout-7781
ANS
