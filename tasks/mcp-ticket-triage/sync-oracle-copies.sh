#!/bin/bash
# Copies solution/solve.sh to wrong/*/oracle.sh for every wrong that starts from the oracle.
# nab mounts a wrong's own folder at /nab/solution (not the oracle's), so each such wrong
# carries its copy; run this after changing the oracle, then `nab validate`.
set -euo pipefail
cd "$(dirname "$0")"
for d in wrong/*/; do
  if grep -q 'bash /nab/solution/oracle.sh' "$d/solve.sh"; then
    cp solution/solve.sh "$d/oracle.sh"
  fi
done
