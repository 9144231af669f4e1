#!/bin/bash
# Known wrong: the oracle's keyspace and commands (lazy expiry everywhere, which writes keep
# a deadline, SET EX/PX/KEEPTTL, the EXPIRE family, TTL/PTTL, PERSIST, RENAME), but
# persistence left as 0.4 had it: snapshots hold no deadlines and the log is replayed at
# the replaying engine's time. The cheapest reading of "the fixes and the missing
# commands"; the crate's own tests pass.
# Files it writes (whole, over the workspace's):
#   src/commands/keys/expire.rs
#   src/commands/keys/mod.rs
#   src/commands/keys/persist.rs
#   src/commands/keys/rename.rs
#   src/commands/keys/ttl.rs
#   src/commands/mod.rs
#   src/commands/strings/set.rs
#   src/engine.rs (0.4's, with the keyspace told the time before every command)
#   src/store/db.rs
set -euo pipefail
cp -R /nab/solution/files/. /workspace/
