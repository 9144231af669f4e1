#!/bin/bash
# Builds the conformance binary from every .c in /nab/tests (the harness adds one per trial,
# see tasks/README.md, "The canary") and the workspace's parser, with AddressSanitizer and
# UBSan (a memory error or undefined behaviour aborts the run). The workspace's headers are
# reachable only by #include "..." (-iquote).
set -euo pipefail
exec gcc -std=c11 -Wall -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=address,undefined \
  -fno-sanitize-recover=all -iquote /workspace/include \
  -o /nab/verify/kvx_conformance /nab/tests/*.c /workspace/src/kvx.c
