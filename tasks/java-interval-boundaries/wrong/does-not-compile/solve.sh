#!/bin/bash
set -euo pipefail
cp /nab/solution/Interval.java /nab/solution/IntervalSet.java /workspace/src/main/java/intervals/
