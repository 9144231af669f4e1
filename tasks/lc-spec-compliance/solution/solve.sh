#!/bin/bash
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
cd /workspace && make -s && bin/kvxdump examples/server.kvx && make -s clean
