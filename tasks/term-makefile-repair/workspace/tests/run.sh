#!/bin/sh
# Smoke test: run from the project root after building.
set -e
out=$(bin/statcalc data/latency.txt)
expected="count=6 min=8.000 max=40.000 mean=16.083 median=11.750 stddev=10.930"
[ "$out" = "$expected" ] || { echo "got: $out"; echo "expected: $expected"; exit 1; }
echo "statcalc: ok"
