#!/bin/bash
# Wrong: everything but .PHONY, so a stray file named "clean" or "all" stops those targets.
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j4 && make test && make clean
