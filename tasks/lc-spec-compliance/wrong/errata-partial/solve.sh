#!/bin/bash
# Wrong: applies errata E-2 (last duplicate wins) but not E-3 (empty bare values).
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
