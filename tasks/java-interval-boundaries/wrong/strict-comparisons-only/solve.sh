#!/bin/bash
# Wrong: only the comparisons made strict (contains, overlaps) and touching intervals joined;
# empty intervals still overlap what surrounds them and survive merge.
set -euo pipefail
cp /nab/solution/Interval.java /nab/solution/IntervalSet.java /workspace/src/main/java/intervals/
