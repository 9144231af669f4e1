#!/bin/sh
# Quick local build: everything in one go, in the source tree.
set -e
awk -f tools/mkops.awk lib/ops.def > include/calc/ops.h
for f in lib/*.c; do gcc -O2 -Iinclude -c "$f" -o "${f%.c}.o"; done
ar rcs libcalc.a lib/*.o
for p in src/*.c; do n=$(basename "$p" .c); gcc -O2 -Iinclude -o "$n" "$p" libcalc.a; done
echo built
