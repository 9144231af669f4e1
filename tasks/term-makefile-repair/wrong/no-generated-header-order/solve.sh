#!/bin/bash
# Wrong: no rule makes objects wait for calc/ops.h: only the .d files (absent on a first build) know it
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
