#!/bin/bash
# Wrong: does the final multiplication in 64 bits, but the row size width*channels*depth still wraps in 32 bits.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/image.c"
s = open(p).read()
old = "    size_t size = width * height * channels * depth;\n"
new = ("    uint64_t row = width * channels * depth;\n"
       "    if (row != 0 && (uint64_t)height > UINT64_MAX / row) return IMG_ETOOBIG;\n"
       "    size_t size = (size_t)(row * height);\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
