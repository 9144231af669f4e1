#!/bin/bash
# Wrong: every target delegates to the workspace's build.sh
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
