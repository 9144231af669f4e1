#!/bin/bash
# Oracle. Two forms of one series (`{job="api",instance="web-3"}` and the same with
# `env=""`) are equal (`Labels::eq`, and `Hash`, see only the labels that have a value),
# but `Labels::fingerprint` starts its hash with `self.len()`, the number of pairs as
# given, empty ones included: the two forms get different fingerprints, so the store
# routes them to different shards (with the default 4 shards, web-3's do) and each shard
# makes a series of its own. The job's roll-up then counts web-3 twice. The fix: count the
# labels that take part in identity.
# Files it writes (whole, over the workspace's):
#   ANSWER.txt
#   src/model/labels.rs
set -euo pipefail
cp -R /nab/solution/files/. /workspace/
