#!/bin/bash
# Wrong (the cheapest shortcut: the first grep hit for each fact): the first line that
# contains ERROR in the current file and the request id of the first line after it that has
# one, grep -c of ERROR, the first edit that sets something to 4 (as if it took effect where
# it is logged), and undoing that edit.
set -euo pipefail
cd /workspace/logs
first=$(grep -n -m1 'ERROR' payments.log)
n=${first%%:*}
req=$(awk -v n="$n" 'NR > n && match($0, / req=[^ ]+/) {print substr($0, RSTART + 5, RLENGTH - 5); exit}' payments.log)
zcat payments.log.1.gz > /tmp/old.log
edit=$(grep -n -m1 -- '-> 4"' /tmp/old.log)
rev=$(sed -E 's/.* rev=([^ ]+) .*/\1/' <<<"$edit")
change=$(grep -m1 "ticket=[^ ]* rev=$rev " /tmp/old.log | sed -E 's/.* ticket=([^ ]+) .*/\1/')
key=$(sed -E 's/.*msg="edit ([^:]+): ([0-9]+) -> 4"/\1=\2/' <<<"$edit")
cat > /workspace/ANSWER.txt <<ANS
first_error: payments.log:$n
request_id: $req
failed_requests: $(grep -c 'ERROR' payments.log)
root_cause: payments.log.1.gz:${edit%%:*}
rollout: $change
remediation: $key
ANS
cat /workspace/ANSWER.txt
