#!/bin/bash
# Wrong: install copies include/calc/*.h but not the generated calc/ops.h
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
