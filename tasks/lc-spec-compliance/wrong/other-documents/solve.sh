#!/bin/bash
# Wrong: applies corrigenda regardless of their "Applies to" line: C-4 (for the KVX-S
# profile) folds section names, C-9 (for KVX-V) holds back `env.` keys.
# (kvx.c made by make_variants.py other-documents)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
