#!/bin/bash
# Wrong: fixes tabs, objects and build dirs, but objects still ignore header changes.
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j4 && make test && make clean
