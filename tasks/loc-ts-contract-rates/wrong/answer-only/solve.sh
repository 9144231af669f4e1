#!/bin/bash
# Wrong: the right answer, and no fix.
set -euo pipefail
cd /workspace
printf 'src/rating/cardKey.ts::rateCardKey\n' > ANSWER.txt
