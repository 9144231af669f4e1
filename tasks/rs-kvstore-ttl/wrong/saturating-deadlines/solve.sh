#!/bin/bash
# Known wrong: the oracle, except that deadlines are computed with saturating arithmetic
# instead of checked: an amount too large for a 64-bit millisecond time (`EXPIRE k
# 9223372036854775807`, `SET k v EX 9223372036854775807`) is clamped to the largest time
# and accepted, where the instruction says it is an error that changes nothing. The cheap
# way to stop 0.4's panic on large TTLs.
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
