#!/bin/bash
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j4 && make test && make clean
