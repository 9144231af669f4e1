#!/bin/bash
# Known wrong (the name): the oracle's fix, but the answer names the shard look-up where
# the second series is made, a function that only uses the hash it is given.
set -euo pipefail
cp -R /nab/solution/files/. /workspace/
echo "src/storage/shard.rs::Shard::series_for" > /workspace/ANSWER.txt
