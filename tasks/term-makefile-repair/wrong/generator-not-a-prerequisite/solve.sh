#!/bin/bash
# Wrong: calc/ops.h depends on ops.def but not on the generator script
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
