#!/bin/bash
# Wrong: install writes to PREFIX, ignoring DESTDIR
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
