#!/bin/bash
# Lists the tests of the target build.sh built, runs them one at a time, then writes the
# JUnit report; exits non-zero when any test failed or gave no result.
set -uo pipefail
cd /tmp/nab-build
status=0
for mode in list run; do
  if [ "$mode" = list ]; then extra=(--list); else extra=(--test-threads=1); fi
  env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 CARGO_HOME=/tmp/nab-cargo-home \
    CARGO_TARGET_DIR=/tmp/nab-target CARGO_NET_OFFLINE=true RUST_BACKTRACE=0 \
    cargo test --offline --test nab_hidden -- "${extra[@]}" \
    > "/nab/verify/$mode.txt" 2> "/nab/verify/$mode.err" || status=1
done
python3 -I /nab/tests/junit.py /nab/verify /nab/verify/junit.xml || status=1
exit "$status"
