#!/bin/bash
# Oracle: the byte size was multiplied in 32-bit unsigned arithmetic (and could also wrap in
# size_t), so the limit check saw a small wrapped value. Multiply with overflow checks.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/image.c"
s = open(p).read()
old = ("    size_t size = width * height * channels * depth;\n"
       "    if (size > IMAGE_MAX_BYTES) return IMG_ETOOBIG;\n")
new = ("    /* Multiply in size_t and refuse on overflow: a wrapped size would pass the limit check\n"
       "     * and allocate a buffer smaller than the image. */\n"
       "    size_t size;\n"
       "    if (__builtin_mul_overflow((size_t)width, (size_t)height, &size) ||\n"
       "        __builtin_mul_overflow(size, (size_t)channels * depth, &size) ||\n"
       "        size > IMAGE_MAX_BYTES)\n"
       "        return IMG_ETOOBIG;\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY
