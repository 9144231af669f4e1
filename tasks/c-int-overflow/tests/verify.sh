#!/bin/bash
# Build the workspace's image library and the hidden checks as separate units (a compile failure
# fails), then run. The workspace's headers are reachable only by #include "..." (-iquote),
# so none can stand in for a system header; the test unit includes minitest.h last.
set -euo pipefail
OUT=/nab/verify
SRC=/workspace/src
CFLAGS=(-std=c11 -D_DEFAULT_SOURCE -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all)
mkdir -p "$OUT/obj"
objs=()
for f in "$SRC/image.c" "$SRC/pnm.c"; do
  gcc "${CFLAGS[@]}" -iquote "$SRC" -c -o "$OUT/obj/ws-$(basename "$f" .c).o" "$f"
  objs+=("$OUT/obj/ws-$(basename "$f" .c).o")
done
# A workspace that defines a C library function (fork, waitpid, fopen...) would replace it
# inside the runner at link time.
libc=$(gcc -print-file-name=libc.so.6)
clash=$(comm -12 <(nm -g --defined-only --format=posix "${objs[@]}" | awk 'NF>1 {print $1}' | sort -u) \
                 <(nm -D --defined-only --format=posix "$libc" | awk '{sub(/@.*/, "", $1); print $1}' | sort -u))
if [ -n "$clash" ]; then
  echo "the workspace defines C library functions, which would replace the runner's: $clash" >&2
  exit 1
fi
# Every .c in /nab/tests is a unit of the runner (the harness adds one per trial).
tests=()
for f in /nab/tests/*.c; do
  gcc "${CFLAGS[@]}" -iquote "$SRC" -c -o "$OUT/obj/t-$(basename "$f" .c).o" "$f"
  tests+=("$OUT/obj/t-$(basename "$f" .c).o")
done
gcc "${CFLAGS[@]}" -o "$OUT/sizecheck" "${tests[@]}" "${objs[@]}"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
exec "$OUT/sizecheck" "$OUT/junit.xml"
