#!/bin/bash
# Wrong: right records, but line numbers counted from 0 (as a Python enumerate would).
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 ' level=ERROR ' payments.log)
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
cause=$(zcat payments.log.1.gz | grep -n 'db.pool.max 40->4')
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:$(( ${first%%:*} - 1 ))
request_id: $req
failed_requests: $(grep -c ' level=ERROR ' payments.log)
root_cause: payments.log.1.gz:$(( ${cause%%:*} - 1 ))
rollout: cfg-rollout-7781
ANS
