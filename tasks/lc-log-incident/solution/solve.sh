#!/bin/bash
# Oracle: the first level=ERROR record names the exhausted pool (pool=HikariPool-2); count
# the distinct requests (a retried request keeps its id) that failed with that same error;
# the start-up block of the rotated file says HikariPool-2 is the `ledger` datasource's
# pool, sized by its profile, and that profile `lean` means pool_size=4; the config reload that switched datasources.ledger.profile to lean (not the
# one that set the reporting pool to 4, nor the latest one) is the root cause.
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 ' level=ERROR ' payments.log)
line=${first%%:*}
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
kind=$(sed -E 's/.*msg="([A-Za-z]+Exception).*/\1/' <<<"$first")
pool=$(sed -E 's/.* pool=([^ ]+) .*/\1/' <<<"$first")
count=$(grep ' level=ERROR ' payments.log | grep "msg=\"$kind" | grep " pool=$pool " | sed -E 's/.* req=([^ ]+) .*/\1/' | sort -u | wc -l)
ds=$(zcat payments.log.1.gz | grep 'msg="datasource ready"' | grep " pool=$pool " | sed -E 's/.* datasource=([^ ]+) .*/\1/')
cause=$(zcat payments.log.1.gz | grep -n 'msg="config reloaded"' | grep "datasources\.$ds\." | tail -1)
cline=${cause%%:*}
rollout=$(sed -E 's/.* rollout=([^ ]+) .*/\1/' <<<"$cause")
profile=$(sed -E "s/.*datasources\.$ds\.profile [a-z]+->([a-z]+).*/\1/" <<<"$cause")
profiles=$(zcat payments.log.1.gz | grep 'msg="pool profiles"')
grep -q " $profile='pool_size=4 " <<<"$profiles"
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:$line
request_id: $req
failed_requests: $count
root_cause: payments.log.1.gz:$cline
rollout: $rollout
ANS
cat /workspace/ANSWER.txt
