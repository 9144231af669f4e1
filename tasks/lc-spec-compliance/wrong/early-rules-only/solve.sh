#!/bin/bash
# Wrong: fixes case-insensitive keys and unknown escapes (sections 4.1, 4.3) but ignores the errata.
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
