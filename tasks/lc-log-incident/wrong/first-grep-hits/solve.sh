#!/bin/bash
# Wrong (the cheapest shortcut: the first grep hit for each fact): the first line that
# contains ERROR in the current file, grep -c of ERROR, the first reload that set a pool
# to 4, and undoing that reload.
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 'ERROR' payments.log)
req=$(sed -E 's/.* req=([^ ]+) .*/\1/' <<<"$first")
cause=$(zcat payments.log.1.gz | awk '/->4/ && !n++ {print NR ":" $0}')
key=$(sed -E "s/.*changes='([^ ]+) ([0-9]+)->4'.*/\1=\2/" <<<"$cause")
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:${first%%:*}
request_id: $req
failed_requests: $(grep -c 'ERROR' payments.log)
root_cause: payments.log.1.gz:${cause%%:*}
rollout: $(sed -E 's/.* rollout=([^ ]+) .*/\1/' <<<"$cause")
remediation: $key
ANS
