#!/bin/bash
# Wrong: no -MMD/-MP dependency files, so header edits rebuild nothing
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
