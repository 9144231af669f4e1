#!/bin/bash
# Known wrong: the oracle, except that TTL truncates the time left to whole seconds (as 0.4
# did) instead of rounding it to the nearest second.
# Files it writes (whole, over the workspace's):
#   src/commands/keys/expire.rs
#   src/commands/keys/mod.rs
#   src/commands/keys/persist.rs
#   src/commands/keys/rename.rs
#   src/commands/keys/ttl.rs
#   src/commands/mod.rs
#   src/commands/strings/set.rs
#   src/engine.rs
#   src/persist/aof.rs
#   src/persist/snapshot.rs
#   src/store/db.rs
set -euo pipefail
cp -R /nab/solution/files/. /workspace/
