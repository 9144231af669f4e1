#!/bin/bash
# Wrong: everything but .PHONY: a stray file named clean, check, install or all stops that target
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
