#!/bin/bash
# Build the workspace's image library with the hidden checks (a compile failure fails), then run.
set -euo pipefail
OUT=/nab/verify
SRC=/workspace/src
gcc -std=c11 -D_DEFAULT_SOURCE -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$SRC" -o "$OUT/sizecheck" /nab/tests/sizecheck.c "$SRC/image.c" "$SRC/pnm.c"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
exec "$OUT/sizecheck" "$OUT/junit.xml"
