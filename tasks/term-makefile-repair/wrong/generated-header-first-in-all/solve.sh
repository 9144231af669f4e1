#!/bin/bash
# Wrong: the generated header ordered by being listed first in all: works for make, not for make <target> or reliably with -j
set -euo pipefail
cp /nab/solution/Makefile /workspace/Makefile
cd /workspace && make -j8 && make clean
