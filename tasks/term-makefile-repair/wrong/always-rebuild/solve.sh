#!/bin/bash
# Wrong: a FORCE prerequisite on every object: correct but rebuilds everything every time
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
