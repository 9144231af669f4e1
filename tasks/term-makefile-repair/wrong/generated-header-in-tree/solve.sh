#!/bin/bash
# Wrong: calc/ops.h generated into include/calc/ in the source tree
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
