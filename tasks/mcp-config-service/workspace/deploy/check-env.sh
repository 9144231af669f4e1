#!/bin/bash
# check-env.sh FILE...: sanity checks run by the deploy pipeline before rollout.
#  - every non-comment line is KEY=VALUE with KEY in [A-Z0-9_]
#  - no key appears twice
#  - the configsvc header names the service/environment and a version
#  - secrets are pinned references (${secret:NAME@VERSION}), never literal values
set -uo pipefail
status=0
for f in "$@"; do
  if ! grep -Eq '^# configsvc: [a-z-]+/[a-z]+ version [0-9]+$' "$f"; then
    echo "$f: missing or malformed '# configsvc: SERVICE/ENV version N' header"; status=1
  fi
  bad=$(grep -Ev '^(#.*|[A-Z0-9_]+=.*|)$' "$f")
  [ -z "$bad" ] || { echo "$f: malformed lines:"; echo "$bad"; status=1; }
  dups=$(grep -Eo '^[A-Z0-9_]+=' "$f" | sort | uniq -d)
  [ -z "$dups" ] || { echo "$f: duplicate keys: $dups"; status=1; }
  if grep -E '^[A-Z0-9_]*(KEY|SECRET|PASSWORD|_URL)=' "$f" | grep -Ev '=\$\{secret:[a-z0-9/-]+@[0-9]+\}$' | grep -Eq '://[^/]*@|KEY=|SECRET=|PASSWORD='; then
    echo "$f: a secret is written as a literal value"; status=1
  fi
  unpinned=$(grep -E '\$\{secret:' "$f" | grep -Ev '=\$\{secret:[a-z0-9/-]+@[0-9]+\}$')
  [ -z "$unpinned" ] || { echo "$f: secret references without a version:"; echo "$unpinned"; status=1; }
done
[ $status -eq 0 ] && echo "ok: $*"
exit $status
