#!/bin/bash
# Wrong: follows the whole chain to the right rollout, but counts the error's records
# (grep -c), not the requests: a retried request fails twice under one request id.
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 ' level=ERROR ' payments.log)
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
pool=$(sed -E 's/.* pool=([^ ]+) .*/\1/' <<<"$first")
count=$(grep ' level=ERROR ' payments.log | grep 'PoolTimeoutException' | grep -c " pool=$pool ")
ds=$(zcat payments.log.1.gz | grep 'msg="datasource ready"' | grep " pool=$pool " | sed -E 's/.* datasource=([^ ]+) .*/\1/')
cause=$(zcat payments.log.1.gz | grep -n 'msg="config reloaded"' | grep "datasources\.$ds\." | tail -1)
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:${first%%:*}
request_id: $req
failed_requests: $count
root_cause: payments.log.1.gz:${cause%%:*}
rollout: $(sed -E 's/.* rollout=([^ ]+) .*/\1/' <<<"$cause")
ANS
