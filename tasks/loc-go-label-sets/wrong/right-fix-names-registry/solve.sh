#!/bin/bash
# Wrong: the oracle's fix, but the answer names the registry, where the duplicate series
# show, instead of the function whose own code made the sets share an array.
set -euo pipefail
bash /nab/solution/solve.sh
cd /workspace
printf 'internal/series/registry.go::Registry.Register\n' > ANSWER.txt
