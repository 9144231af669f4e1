#!/bin/bash
# Build the workspace's queue sources with the hidden checks (a compile failure fails), then run.
set -euo pipefail
OUT=/nab/verify
SRC=/workspace/src
gcc -std=c11 -D_DEFAULT_SOURCE -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$SRC" -o "$OUT/ringcheck" /nab/tests/ringcheck.c \
    "$SRC/ringbuf.c" "$SRC/frame.c" "$SRC/logq.c" "$SRC/crc32.c"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
exec "$OUT/ringcheck" "$OUT/junit.xml"
