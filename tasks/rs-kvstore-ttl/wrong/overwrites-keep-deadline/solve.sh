#!/bin/bash
# Known wrong: the oracle, except that the keyspace's insert keeps a key's deadline; only
# SET itself clears it. MSET, GETSET and RENAME onto a key with a deadline keep the old one.
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
