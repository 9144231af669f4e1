#!/bin/bash
# Build the workspace's UTF-8 library with the hidden checks (a compile failure fails), then run.
set -euo pipefail
OUT=/nab/verify
SRC=/workspace/src
gcc -std=c11 -D_DEFAULT_SOURCE -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I"$SRC" -o "$OUT/strictcheck" /nab/tests/strictcheck.c "$SRC/utf8.c" "$SRC/sanitize.c" "$SRC/pathcheck.c"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
exec "$OUT/strictcheck" "$OUT/junit.xml"
