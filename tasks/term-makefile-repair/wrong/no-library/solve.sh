#!/bin/bash
# Wrong: programs link the objects directly; no build/lib/libcalc.a
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
