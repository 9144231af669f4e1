#!/bin/bash
# Oracle. Two forms of one series (`{job="api",instance="web-3"}` and the same with
# `env=""`) are equal (`Labels::eq` compares only the labels that have a value), but
# `Labels::fingerprint` starts its hash with `self.len()`, the number of pairs as given,
# empty ones included: the two forms get different fingerprints, so the store sends them to
# different shards, or misses the existing key in the shard's HashMap (the `Hash` of
# `Labels` is the fingerprint), and makes a second series. The job's roll-up then counts
# web-3 twice. The fix: count the labels that take part in identity.
# Files it writes (whole, over the workspace's):
#   ANSWER.txt
#   src/model/labels.rs
set -euo pipefail
cp -R /nab/solution/files/. /workspace/
