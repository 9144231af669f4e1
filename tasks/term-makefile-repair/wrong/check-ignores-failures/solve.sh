#!/bin/bash
# Wrong: make check loops over the tests without stopping on a failure (exit status of the last one)
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
